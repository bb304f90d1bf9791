#pragma once
// The attack's task kinds (gpdp/tasks):
//   "attack.lira" {options, r, releases, seed} -> [SeedOutcome per release]: run_lira on one
//   (r, seed) item of a sweep (params and results as in attack/lira_json.hpp).
#include <vector>

#include "gpdp/tasks/task.hpp"

namespace gpdp::attack {

std::vector<tasks::TaskKind> attack_tasks();

}  // namespace gpdp::attack
