#pragma once
// The covariate domain Ω: an axis-aligned box that the user DECLARES. It is never inferred from
// private data; κ, grids and coordinate scaling all derive from it.
#include <Eigen/Core>
#include <string>

namespace gpdp {

class Box {
 public:
  Box(Eigen::VectorXd lower, Eigen::VectorXd upper);
  static Box unit(int dim);
  // "0:1,0:1" or "xmin:xmax,ymin:ymax" (one lo:hi pair per dimension).
  static Box parse(const std::string& text);

  int dim() const { return static_cast<int>(lower_.size()); }
  const Eigen::VectorXd& lower() const { return lower_; }
  const Eigen::VectorXd& upper() const { return upper_; }
  // Largest Euclidean distance between two points of the box.
  double diameter() const;
  bool contains(const Eigen::Ref<const Eigen::VectorXd>& x) const;
  std::string to_string() const;

 private:
  Eigen::VectorXd lower_, upper_;
};

}  // namespace gpdp
