#include "gpdp/gis/intervals.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::gis {

std::vector<Interval> excursion_intervals(ValuesView values, const Grid& grid, double level) {
  require(grid.dim() == 1,
          fmt::format("excursion intervals: needs a 1-D grid, got {}-D", grid.dim()));
  require(values.size() == static_cast<std::size_t>(grid.size()),
          fmt::format("excursion intervals: {} values for a grid of {} points", values.size(),
                      grid.size()));
  require(std::isfinite(level), "excursion intervals: the level must be finite");
  const GridAxis& a = grid.axes()[0];
  const std::size_t n = values.size();
  for (std::size_t i = 0; i < n; ++i) {
    require(std::isfinite(values[i]),
            fmt::format("excursion intervals: value at grid point {} is not finite", i));
  }
  // The crossing between grid points i and i+1 (one inside, one outside), by linear interpolation.
  auto crossing = [&](std::size_t i) {
    const double f = (level - values[i]) / (values[i + 1] - values[i]);
    const double x0 = a.at(static_cast<long>(i)), x1 = a.at(static_cast<long>(i + 1));
    return x0 + f * (x1 - x0);
  };
  std::vector<Interval> out;
  for (std::size_t i = 0; i < n;) {
    if (values[i] < level) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j + 1 < n && values[j + 1] >= level) ++j;
    const double lo = i == 0 ? a.lo : crossing(i - 1);
    const double hi = j + 1 == n ? a.at(static_cast<long>(n - 1)) : crossing(j);
    out.push_back({lo, hi});
    i = j + 1;
  }
  return out;
}

double total_length(const std::vector<Interval>& intervals) {
  double s = 0;
  for (const Interval& iv : intervals) s += iv.hi - iv.lo;
  return s;
}

}  // namespace gpdp::gis
