#include "points_file.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"

namespace gpdp::io {

PointsFile read_points_file(const std::string& path, const std::vector<std::string>& names) {
  const CsvTable table = read_csv(path);
  require(!table.rows.empty(), fmt::format("{}: no points after the header", path));
  PointsFile f;
  f.names = names;
  const bool named = std::all_of(names.begin(), names.end(), [&](const std::string& n) {
    return std::find(table.header.begin(), table.header.end(), n) != table.header.end();
  });
  if (!named) {
    for (std::size_t i = 0; i < f.names.size(); ++i) f.names[i] = fmt::format("x{}", i + 1);
  }
  f.points = table.numeric(f.names);
  f.lines = table.line_numbers;
  return f;
}

}  // namespace gpdp::io
