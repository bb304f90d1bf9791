// gpdp reproduce ops-abalone | ops-adult (reproduce/ops.hpp), the repeats on this machine's
// threads.
#include "gpdp/reproduce/ops.hpp"
#include "gpdp/tasks/executor.hpp"
#include "reproduce.hpp"

namespace gpdp::cli {

namespace {

bool register_ops() {
  for (const auto& target : reproduce::ops_targets()) {
    register_reproduction(
        {target.name, target.description, [name = target.name](const ReproduceOptions& o) {
           tasks::ThreadExecutor executor(o.threads);
           reproduce::run_ops(name, o, executor);
         }});
  }
  return true;
}

const bool registered = register_ops();

}  // namespace
}  // namespace gpdp::cli
