#pragma once
// The membership-inference figures of the paper (§4, App. C): fig2 (attack vs ε for several σ),
// fig3 (attack vs L), fig5 (both at FPR = 0.01), fig6 (shadow histograms). Each runs its sweep as
// "attack.lira" tasks (attack/sweep.hpp) through `executor` and writes CSV + Markdown + PNG into
// options.out_dir, the same files whichever executor ran the tasks (docs/scale.md); the line
// saying what was written goes to stdout.
#include <string>
#include <vector>

#include "gpdp/reproduce/options.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::reproduce {

std::vector<Target> attack_targets();

// Throws InputError for a name not in attack_targets().
void run_attack_figure(const std::string& name, const Options& options, tasks::Executor& executor);

}  // namespace gpdp::reproduce
