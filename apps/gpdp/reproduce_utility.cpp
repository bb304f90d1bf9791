// gpdp reproduce table1 | table2 | table3 | table4 | fig7 | fig8 | fig4-lucas: the library's
// utility reproductions (gpdp/reproduce/utility.hpp) on this process's threads.
#include "gpdp/reproduce/utility.hpp"
#include "reproduce.hpp"

namespace gpdp::cli {

namespace {
const bool registered = [] {
  for (const auto& target : reproduce::utility_targets()) {
    register_reproduction(
        {target.name, target.description, [name = target.name](const ReproduceOptions& o) {
           tasks::ThreadExecutor executor(o.threads);
           reproduce::run_utility(name, o, executor);
         }});
  }
  return true;
}();
}  // namespace

}  // namespace gpdp::cli
