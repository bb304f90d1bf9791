#pragma once
// 1-D excursion sets: the intervals where a field sampled on a 1-D grid is >= level, with ends
// found by linear interpolation between grid points and clipped to the grid's range.
#include <vector>

#include "gpdp/gis/values.hpp"
#include "gpdp/grid.hpp"

namespace gpdp::gis {

struct Interval {
  double lo = 0;
  double hi = 0;
};

std::vector<Interval> excursion_intervals(ValuesView values, const Grid& grid, double level);
double total_length(const std::vector<Interval>& intervals);

}  // namespace gpdp::gis
