#pragma once
// A task: one independent unit of an experiment, described as plain data so that it can run in
// this process or on another machine (docs/scale.md). `params` carry everything the task needs,
// the seed and the task index included: a task derives its random stream from them (e.g.
// SeededRng(seed).split(index)), never from the thread or worker that runs it, so results do not
// depend on where or in which order tasks run.
#include <nlohmann/json.hpp>
#include <string>

namespace gpdp::tasks {

struct Task {
  std::string kind;       // the registered task function (registry.hpp)
  nlohmann::json params;  // its only input
};

// What a task kind runs: params -> result. Results cross processes as CBOR (cbor.hpp), which keeps
// every double exact (NaN, ±inf and denormals included).
using TaskFunction = nlohmann::json (*)(const nlohmann::json& params);

// A named task function, as a module lists its kinds (e.g. experiments::utility_tasks()).
struct TaskKind {
  std::string name;  // "<module>.<what>", e.g. "utility.search"
  TaskFunction function;
};

}  // namespace gpdp::tasks
