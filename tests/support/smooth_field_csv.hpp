#pragma once
// A small private data set for CLI release tests: n records of a smooth field on [0,1]²
// (x1, x2 on a 6-column lattice, y = 0.8 sin(5 x1) cos(3 x2)).
#include <fmt/format.h>

#include <cmath>
#include <string>

namespace gpdp::test {

inline std::string smooth_field_csv(int n) {
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < n; ++i) {
    const double x = (i % 6 + 0.5) / 6.0, y = (i / 6 + 0.5) / 5.0;
    csv += fmt::format("{},{},{}\n", x, y, 0.8 * std::sin(5 * x) * std::cos(3 * y));
  }
  return csv;
}

}  // namespace gpdp::test
