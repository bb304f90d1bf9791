#pragma once
// The task kinds of the research tools: the product's (tasks::builtin_registry(): rng.normals, the
// public search, the release's draws) and those of the utility study, the attack, the OPS
// experiments and the auditor. What gpdp-lab's executors and the gpdp.distributed workers run; the
// product (gpdp, the gpdp library target) does not link this layer.
#include <nlohmann/json.hpp>

#include "gpdp/tasks/registry.hpp"
#include "gpdp/tasks/task.hpp"

namespace gpdp::lab {

// Every task kind of the library, the research tools' included.
const tasks::Registry& registry();

// registry().run(task): what a worker runs.
nlohmann::json run_task(const tasks::Task& task);

}  // namespace gpdp::lab
