#pragma once
// Every reproduction of the library with the driver that runs it: the utility targets
// (reproduce/utility.hpp), the attack figures (reproduce/attack.hpp) and the OPS experiments
// (reproduce/ops.hpp). What `gpdp-lab reproduce` lists and
// run_request (command.hpp) dispatches on.
#include <string>
#include <vector>

#include "gpdp/reproduce/options.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::reproduce {

using Driver = void (*)(const std::string& name, const Options& options, tasks::Executor& executor);

struct Registered {
  Target target;
  Driver run;
};

std::vector<Registered> all_targets();

// Target `name` with its driver; ParameterError (parameter "target") naming the known targets for
// another name.
Registered find_target(const std::string& name);

}  // namespace gpdp::reproduce
