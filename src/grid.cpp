#include "gpdp/grid.hpp"

#include <fmt/format.h>

#include <sstream>

#include "gpdp/error.hpp"
#include "parse.hpp"

namespace gpdp {

double GridAxis::step() const {
  return count > 1 ? (hi - lo) / static_cast<double>(count - 1) : 0.0;
}

double GridAxis::at(long i) const {
  if (count <= 1) return lo;
  return i == count - 1 ? hi : lo + static_cast<double>(i) * step();
}

Grid::Grid(std::vector<GridAxis> axes) : axes_(std::move(axes)) {
  require(!axes_.empty(), "grid: needs at least one axis");
  for (const auto& a : axes_) {
    require(a.count >= 1, fmt::format("grid: axis needs at least one point, got {}", a.count));
    require(a.count == 1 || a.lo < a.hi,
            fmt::format("grid: axis needs lo < hi, got {}:{}", a.lo, a.hi));
  }
}

Grid Grid::parse(const std::string& text) {
  std::vector<GridAxis> axes;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    std::vector<std::string> f;
    std::stringstream ps(part);
    std::string item;
    while (std::getline(ps, item, ':')) f.push_back(item);
    require(f.size() == 3,
            fmt::format("grid '{}': each axis must be lo:hi:count, got '{}'", text, part));
    const std::string what = fmt::format("grid '{}'", text);
    axes.push_back({parse_double(f[0], what), parse_double(f[1], what),
                    static_cast<long>(parse_integer(f[2], what))});
  }
  return Grid(std::move(axes));
}

long Grid::size() const {
  long s = 1;
  for (const auto& a : axes_) s *= a.count;
  return s;
}

Points Grid::points() const {
  Points p(size(), dim());
  long stride = 1;
  for (int d = 0; d < dim(); ++d) {
    const auto& a = axes_[static_cast<std::size_t>(d)];
    for (long i = 0; i < p.rows(); ++i) p(i, d) = a.at((i / stride) % a.count);
    stride *= a.count;
  }
  return p;
}

}  // namespace gpdp
