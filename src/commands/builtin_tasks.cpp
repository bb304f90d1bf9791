// The task kinds of the product: one list per module (add yours to make_builtin_registry). The
// registry sits above every module that defines tasks (the commands layer), so that those modules
// include only the task seam (tasks/task.hpp, executor.hpp); builtin_registry() and run_task() are
// declared in tasks/registry.hpp (ThreadExecutor takes the builtin registry by default) and defined
// here. The research tools' kinds (utility study, attack, OPS, auditor) are added on top of these
// by lab/registry.hpp, which the product does not link.
#include "gpdp/experiments/public_search_tasks.hpp"
#include "gpdp/release/draw_task.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/tasks/registry.hpp"

namespace gpdp::tasks {

namespace {
// "rng.normals" {seed, index, count}: `count` standard normals of stream `index` of `seed`. The
// smallest real task: checks an executor end to end (order, determinism, transport of doubles).
nlohmann::json rng_normals(const nlohmann::json& params) {
  SeededRng rng = SeededRng(params.at("seed").get<std::uint64_t>())
                      .split(params.at("index").get<std::uint64_t>());
  return rng.standard_normals(params.at("count").get<std::size_t>());
}

Registry make_builtin_registry() {
  Registry registry;
  registry.add("rng.normals", &rng_normals);
  registry.add(experiments::public_search_tasks());
  registry.add(release::release_tasks());
  return registry;
}
}  // namespace

const Registry& builtin_registry() {
  static const Registry registry = make_builtin_registry();
  return registry;
}

nlohmann::json run_task(const Task& task) { return builtin_registry().run(task); }

}  // namespace gpdp::tasks
