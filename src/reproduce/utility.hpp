#pragma once
// The privacy–utility excursion-set reproductions of paper §5 and App. D: table1..table4, fig7,
// fig8 (experiments::run_study, its task lists through `executor`) and fig4-lucas (one data set:
// its search's θ evaluations as tasks through `executor`, one per length-scale ℓ of a round). Each
// writes Markdown + CSV (+ JSON, PNG) into options.out_dir, the same files whichever executor ran
// the tasks (docs/scale.md).
#include <string>
#include <vector>

#include "gpdp/reproduce/options.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::reproduce {

std::vector<Target> utility_targets();

// Throws InputError for a name not in utility_targets().
void run_utility(const std::string& name, const Options& options, tasks::Executor& executor);

}  // namespace gpdp::reproduce
