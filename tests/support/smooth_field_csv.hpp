#pragma once
// A small private data set for CLI release tests: n records of a smooth field on [0,1]²
// (x1, x2 on a 6-column lattice, y = 0.8 sin(5 x1) cos(3 x2)).
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <utility>

#include "support/paths.hpp"

namespace gpdp::test {

inline std::string smooth_field_csv(int n) {
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < n; ++i) {
    const double x = (i % 6 + 0.5) / 6.0, y = (i / 6 + 0.5) / 5.0;
    csv += fmt::format("{},{},{}\n", x, y, 0.8 * std::sin(5 * x) * std::cos(3 * y));
  }
  return csv;
}

// A folder holding smooth_field_csv(30) as data.csv, and `gpdp release` on it: a 12 x 10 grid of
// the unit square, threshold 0, δ = 1e-3, exponential kernel ℓ = 0.3, its own ledger, `flags`.
struct SmoothFieldRelease {
  TempDir dir;
  std::string flags;
  explicit SmoothFieldRelease(std::string f) : flags(std::move(f)) {
    write_text(dir.file("data.csv"), smooth_field_csv(30));
  }
  CommandResult release(const std::string& extra, const std::string& out) const {
    return run_cli(fmt::format(
        "release --data {} --domain 0:1,0:1 --grid2d 0:1:12,0:1:10 --threshold 0 --delta 1e-3 "
        "--kernel exp --ell 0.3 {} --dataset d --ledger {} {} --out {}",
        dir.file("data.csv"), flags, dir.file("ledger.sqlite"), extra, out));
  }
};

}  // namespace gpdp::test
