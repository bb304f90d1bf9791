#pragma once
// ops-abalone, ops-adult: test accuracy against ε of OPS, the hybrid, DP-SGLD, ObjPert and OutPert
// next to the non-private line (Wang, Fienberg & Smola 2015, §5), every repeat an "ops.repeat"
// task (ops/experiment_tasks.hpp) through `executor`. Writes ops-<data>.csv/.md/.png into
// options.out_dir, the same files whichever executor ran the tasks (timing line aside); the line
// saying so goes to stderr. options.pairs = repeats per (method, ε) (0: 20, quick: 3).
#include <string>
#include <vector>

#include "gpdp/reproduce/options.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::reproduce {

std::vector<Target> ops_targets();

// Throws InputError for a name not in ops_targets().
void run_ops(const std::string& name, const Options& options, tasks::Executor& executor);

}  // namespace gpdp::reproduce
