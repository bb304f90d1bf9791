#pragma once
// The auditor's task kinds (gpdp/tasks), one local search each:
//   "audit.ascent"  {space, objective, start: {pair, name}, max_iterations} -> found
//   "audit.subplex" {space, objective, u, max_evals}                         -> found
// space = {mechanism (privacy/event.hpp JSON), lower, upper, extra_test, same_covariate};
// objective = {kind: divergence | sensitivity | mean_distance, alpha}; found = {best, witness,
// start, evaluations, singular}. Pairs are matrices as row arrays, every double exact.
#include <vector>

#include "gpdp/tasks/task.hpp"

namespace gpdp::auditor {

std::vector<tasks::TaskKind> audit_tasks();

}  // namespace gpdp::auditor
