#pragma once
// Regular evaluation grids on a box: "lo:hi:count" per axis (endpoints included).
#include <string>
#include <vector>

#include "gpdp/kernel.hpp"

namespace gpdp {

struct GridAxis {
  double lo;
  double hi;
  long count;  // >= 1; points lo + i (hi - lo)/(count - 1)
  double step() const { return count > 1 ? (hi - lo) / static_cast<double>(count - 1) : 0.0; }
  double at(long i) const { return count > 1 ? lo + static_cast<double>(i) * step() : lo; }
};

class Grid {
 public:
  explicit Grid(std::vector<GridAxis> axes);
  // "0:1:800" (1-D) or "0:1:512,0:1:512" (2-D).
  static Grid parse(const std::string& text);

  int dim() const { return static_cast<int>(axes_.size()); }
  const std::vector<GridAxis>& axes() const { return axes_; }
  long size() const;
  // Point order: the first axis varies fastest (x1 inner loop, then x2).
  Points points() const;

 private:
  std::vector<GridAxis> axes_;
};

}  // namespace gpdp
