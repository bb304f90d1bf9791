#include "gpdp/preview/evaluation_points.hpp"

#include <cmath>

namespace gpdp::preview {

Eigen::VectorXd EvaluationPoints::on_grid(const Eigen::VectorXd& values) const {
  if (!masked()) return values;
  Eigen::VectorXd full = Eigen::VectorXd::Constant(grid->size(), std::nan(""));
  for (std::size_t i = 0; i < cells.size(); ++i)
    full(cells[i]) = values(static_cast<Eigen::Index>(i));
  return full;
}

Eigen::VectorXd EvaluationPoints::from_grid(const Eigen::VectorXd& full) const {
  if (!masked()) return full;
  Eigen::VectorXd v(static_cast<Eigen::Index>(cells.size()));
  for (std::size_t i = 0; i < cells.size(); ++i) v(static_cast<Eigen::Index>(i)) = full(cells[i]);
  return v;
}

}  // namespace gpdp::preview
