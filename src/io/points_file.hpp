#pragma once
// The one reader of points files (`--points` of release, query, sample and posterior; `--mask`):
// a CSV with a header and one point per row, whose coordinate columns are named like the data's
// covariates (`names`, e.g. the --x names) or, when not all of those are present, x1..xd.
#include <string>
#include <vector>

#include "gpdp/kernel.hpp"

namespace gpdp::io {

struct PointsFile {
  Points points;                   // rows × names.size()
  std::vector<std::string> names;  // the columns read: `names` or x1..xd
  std::vector<std::size_t> lines;  // 1-based line of each point in the file (for messages)
};

// InputError naming the file (and line and column) when it is missing, has no points, or a
// coordinate is not a finite number.
PointsFile read_points_file(const std::string& path, const std::vector<std::string>& names);

}  // namespace gpdp::io
