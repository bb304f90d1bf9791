#pragma once
// The mean and the 5–95 % quantile interval of a sample of simulated scores: how `gpdp preview`
// and `--mechanism auto` report a predicted utility.
#include <vector>

namespace gpdp {

struct Interval {
  double mean = 0.0;
  double lo = 0.0;  // 5 % quantile
  double hi = 0.0;  // 95 % quantile
};

// The p-quantile of `values` (linear interpolation between order statistics); values non-empty.
double quantile(std::vector<double> values, double p);
// The mean and the 5 % and 95 % quantiles of `values` (non-empty).
Interval interval(const std::vector<double>& values);

}  // namespace gpdp
