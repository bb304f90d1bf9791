#pragma once
// The membership-inference figures of the paper (§4, App. C): fig2 (attack vs ε for several σ),
// fig3 (attack vs L), fig5 (both at FPR = 0.01), fig6 (shadow histograms). Each runs its sweep as
// "attack.lira" tasks on the executor it is given (threads in `gpdp reproduce`, Dask workers in
// `python -m gpdp.distributed reproduce`) and writes the same files whatever the executor.
#include <cstdint>
#include <string>
#include <vector>

#include "gpdp/tasks/executor.hpp"

namespace gpdp::attack {

struct FigureOptions {
  std::string out_dir;  // created if missing
  bool quick = false;   // reduced sizes (said so in the output)
  long pairs = 0;       // shadow = evaluation datasets per hypothesis; 0 = the paper's 10⁴
  std::uint64_t seed = 20260616;
  std::string conversion = "mironov";  // mironov | cks
};

struct Figure {
  std::string name;
  std::string description;
};
const std::vector<Figure>& figures();

// Runs `target` (a name of figures()) and writes its files into options.out_dir; returns the
// lines saying what was written. InputError for another target.
std::string reproduce_figure(const std::string& target, const FigureOptions& options,
                             tasks::Executor& executor);

}  // namespace gpdp::attack
