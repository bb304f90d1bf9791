#pragma once
// Regular evaluation grids on a box: "lo:hi:count" per axis (endpoints included).
#include <string>
#include <vector>

#include "gpdp/kernel.hpp"

namespace gpdp {

struct GridAxis {
  double lo;
  double hi;
  long count;  // >= 1
  // (hi − lo)/(count − 1); 0 for a single point.
  double step() const;
  // Node i = 0 .. count − 1: lo + i · step, except that the last node is exactly hi (both ends are
  // the declared values whatever the rounding of i · step: 0:1:1000000 ends at 1, not 1 − 1e-16).
  double at(long i) const;
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
