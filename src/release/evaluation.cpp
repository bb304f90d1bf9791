#include "gpdp/release/evaluation.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/gis/raster_frame.hpp"
#include "gpdp/io/mask.hpp"
#include "io/points_file.hpp"

namespace gpdp::release {

namespace {

Evaluation grid_evaluation(const GridPoints& g, std::vector<std::string> names) {
  Evaluation e;
  e.names = std::move(names);
  require_parameter(g.grid.dim() == static_cast<int>(e.names.size()), "evaluation",
                    fmt::format("evaluation: the grid has {} dimension(s) but the data have {}",
                                g.grid.dim(), e.names.size()));
  // A 2-D grid's cells must have a width (the excursion polygons and map.tif are pixels):
  // refused here, before anything is drawn.
  if (g.grid.dim() == 2) (void)gis::raster_frame(g.grid);
  e.grid = g.grid;
  e.points = g.grid.points();
  e.mask_file = g.mask_file;
  if (!g.mask_file.empty()) {
    require_parameter(g.grid.dim() == 2, "mask_file", "mask_file needs a 2-D grid");
    e.cells = io::read_mask_cells(g.grid, g.mask_file, e.names);
    Points kept(static_cast<Eigen::Index>(e.cells.size()), e.points.cols());
    for (std::size_t i = 0; i < e.cells.size(); ++i)
      kept.row(static_cast<Eigen::Index>(i)) = e.points.row(e.cells[i]);
    e.points = kept;
  }
  return e;
}

Evaluation file_evaluation(const FilePoints& f, std::vector<std::string> names) {
  Evaluation e;
  e.names = std::move(names);
  e.points_file = f.file;
  require_parameter(!f.file.empty(), "evaluation",
                    "evaluation: give a grid or a file of points to evaluate the path at");
  io::PointsFile file = io::read_points_file(f.file, e.names);
  e.names = std::move(file.names);
  e.points = std::move(file.points);
  e.lines = std::move(file.lines);
  return e;
}

}  // namespace

Eigen::MatrixXd spread_onto_grid(const std::vector<Eigen::Index>& cells, long grid_size,
                                 const Eigen::MatrixXd& values) {
  Eigen::MatrixXd full = Eigen::MatrixXd::Constant(grid_size, values.cols(), std::nan(""));
  for (std::size_t i = 0; i < cells.size(); ++i)
    full.row(cells[i]) = values.row(static_cast<Eigen::Index>(i));
  return full;
}

Eigen::MatrixXd gather_cells(const std::vector<Eigen::Index>& cells, const Eigen::MatrixXd& full) {
  Eigen::MatrixXd v(static_cast<Eigen::Index>(cells.size()), full.cols());
  for (std::size_t i = 0; i < cells.size(); ++i)
    v.row(static_cast<Eigen::Index>(i)) = full.row(cells[i]);
  return v;
}

Eigen::MatrixXd Evaluation::on_grid(const Eigen::MatrixXd& values) const {
  return masked() ? spread_onto_grid(cells, grid->size(), values) : values;
}

void check_in_domain(const Evaluation& e, const Box& domain) {
  for (Eigen::Index i = 0; i < e.points.rows(); ++i) {
    if (domain.contains(e.points.row(i).transpose())) continue;
    if (e.points_file.empty()) {
      throw ParameterError({"evaluation"},
                           fmt::format("evaluation: the grid leaves the declared domain {} (point "
                                       "{})",
                                       domain.to_string(), fmt::join(e.points.row(i), ", ")));
    }
    throw ParameterError(
        {"evaluation"},
        fmt::format("{}:{}: query point outside the declared domain {}", e.points_file,
                    e.lines[static_cast<std::size_t>(i)], domain.to_string()));
  }
}

Evaluation load_evaluation(const EvaluationSpec& spec, const std::vector<std::string>& names) {
  if (const auto* g = std::get_if<GridPoints>(&spec)) return grid_evaluation(*g, names);
  return file_evaluation(std::get<FilePoints>(spec), names);
}

Evaluation load_evaluation(const EvaluationSpec& spec, const std::vector<std::string>& names,
                           const Box& domain) {
  Evaluation e = load_evaluation(spec, names);
  check_in_domain(e, domain);
  return e;
}

}  // namespace gpdp::release
