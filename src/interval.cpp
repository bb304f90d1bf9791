#include "gpdp/interval.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpdp {

double quantile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const double at = p * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const auto hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (at - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

Interval interval(const std::vector<double>& values) {
  const double mean =
      std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  return {mean, quantile(values, 0.05), quantile(values, 0.95)};
}

}  // namespace gpdp
