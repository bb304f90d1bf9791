// gpdp-lab reproduce TARGET for every reproduction of the library (gpdp/reproduce/targets.hpp: the
// utility tables and figures, the attack figures, the OPS experiments) on this process's threads.
#include "gpdp/lab/registry.hpp"
#include "gpdp/reproduce/targets.hpp"
#include "reproduce.hpp"

namespace gpdp::cli {

namespace {
const bool registered = [] {
  for (const auto& [target, run] : reproduce::all_targets()) {
    register_reproduction({target.name, target.description,
                           [name = target.name, run = run](const ReproduceOptions& o) {
                             tasks::ThreadExecutor executor(o.threads, lab::registry());
                             run(name, o, executor);
                           }});
  }
  return true;
}();
}  // namespace

}  // namespace gpdp::cli
