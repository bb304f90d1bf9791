#include "gpdp/preview/evaluation_points.hpp"

#include <cmath>

namespace gpdp::preview {

Eigen::MatrixXd EvaluationPoints::on_grid(const Eigen::MatrixXd& values) const {
  if (!masked()) return values;
  Eigen::MatrixXd full = Eigen::MatrixXd::Constant(grid->size(), values.cols(), std::nan(""));
  for (std::size_t i = 0; i < cells.size(); ++i)
    full.row(cells[i]) = values.row(static_cast<Eigen::Index>(i));
  return full;
}

Eigen::MatrixXd EvaluationPoints::from_grid(const Eigen::MatrixXd& full) const {
  if (!masked()) return full;
  Eigen::MatrixXd v(static_cast<Eigen::Index>(cells.size()), full.cols());
  for (std::size_t i = 0; i < cells.size(); ++i)
    v.row(static_cast<Eigen::Index>(i)) = full.row(cells[i]);
  return v;
}

}  // namespace gpdp::preview
