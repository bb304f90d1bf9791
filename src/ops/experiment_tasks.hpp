#pragma once
// The repeats of an accuracy-vs-ε experiment as tasks (gpdp/tasks):
//   "ops.repeat" {source, method, epsilon, options, seed?, repeat} -> {accuracy, guarantee,
//   diagnostics?}: one repeat k (data split, fit, release, test accuracy) with the stream
//   SeededRng(seed).split(k), or a SecureRng when there is no seed.
// The source is named (SourceRef) and loaded once per process (shared_source).
#include <nlohmann/json.hpp>
#include <vector>

#include "gpdp/ops/experiment.hpp"
#include "gpdp/tasks/task.hpp"

namespace gpdp::ops {

std::vector<tasks::TaskKind> ops_tasks();

// load_source(ref), loaded once per process (later calls share the tables; thread-safe).
const TabularSource& shared_source(const SourceRef& ref);

void to_json(nlohmann::json& j, const MethodOptions& o);
void from_json(const nlohmann::json& j, MethodOptions& o);
void to_json(nlohmann::json& j, const RepeatOutcome& o);
void from_json(const nlohmann::json& j, RepeatOutcome& o);

}  // namespace gpdp::ops
