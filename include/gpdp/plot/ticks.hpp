#pragma once
// Axis ticks: "nice" positions (1, 2, 2.5, 5 x 10^k steps on linear axes; decades, with 2 and 5
// in between when the range is short, on log axes) and their labels.
#include <string>
#include <vector>

namespace gpdp::plot {

struct Tick {
  double value;
  std::string label;
};

// Ticks inside [lo, hi] (lo < hi) with about `target` intervals between them.
std::vector<Tick> linear_ticks(double lo, double hi, int target = 5);
// Ticks inside [lo, hi] (0 < lo < hi) for a log10 axis.
std::vector<Tick> log_ticks(double lo, double hi, int target = 6);
// The step of linear_ticks: the smallest of 1, 2, 2.5, 5 x 10^k that is >= (hi - lo) / target.
double nice_step(double lo, double hi, int target);

}  // namespace gpdp::plot
