#pragma once
// The attack's task kinds (gpdp/tasks):
//   "attack.lira" {options, r, releases, seed} -> [SeedOutcome per release] (run_lira on one (r,
//   seed) item of a sweep; params and results as in attack/lira_json.hpp).
#include "gpdp/tasks/registry.hpp"

namespace gpdp::attack {

void register_attack_tasks(tasks::Registry& registry);

}  // namespace gpdp::attack
