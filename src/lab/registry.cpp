#include "gpdp/lab/registry.hpp"

#include "attack/tasks.hpp"
#include "auditor/audit_tasks.hpp"
#include "gpdp/experiments/utility_tasks.hpp"
#include "ops/experiment_tasks.hpp"

namespace gpdp::lab {

namespace {
tasks::Registry make_registry() {
  tasks::Registry registry = tasks::builtin_registry();
  registry.add(experiments::utility_tasks());
  registry.add(attack::attack_tasks());
  registry.add(ops::ops_tasks());
  registry.add(auditor::audit_tasks());
  return registry;
}
}  // namespace

const tasks::Registry& registry() {
  static const tasks::Registry all = make_registry();
  return all;
}

nlohmann::json run_task(const tasks::Task& task) { return registry().run(task); }

}  // namespace gpdp::lab
