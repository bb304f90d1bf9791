// gpdp reproduce fig2 | fig3 | fig5 | fig6 (reproduce/attack.hpp), their sweeps on this machine's
// threads.
#include "gpdp/reproduce/attack.hpp"
#include "gpdp/tasks/executor.hpp"
#include "reproduce.hpp"

namespace gpdp::cli {

namespace {

bool register_figures() {
  for (const auto& target : reproduce::attack_targets()) {
    register_reproduction(
        {target.name, target.description, [name = target.name](const ReproduceOptions& o) {
           tasks::ThreadExecutor executor(o.threads);
           reproduce::run_attack_figure(name, o, executor);
         }});
  }
  return true;
}

const bool registered = register_figures();

}  // namespace
}  // namespace gpdp::cli
