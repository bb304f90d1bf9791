#include "gpdp/preview/evaluation_points.hpp"

#include "gpdp/release/evaluation.hpp"

namespace gpdp::preview {

Eigen::MatrixXd EvaluationPoints::on_grid(const Eigen::MatrixXd& values) const {
  return masked() ? release::spread_onto_grid(cells, grid->size(), values) : values;
}

Eigen::MatrixXd EvaluationPoints::from_grid(const Eigen::MatrixXd& full) const {
  return masked() ? release::gather_cells(cells, full) : full;
}

}  // namespace gpdp::preview
