#include "options.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/io/load_dataset.hpp"
#include "gpdp/io/points_file.hpp"
#include "gpdp/options/model_options.hpp"
#include "gpdp/release/release_options.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

void add_kernel_options(CLI::App* app, KernelOptions& o) {
  const auto specs = options::kernel_options(o.kernel, o.ell);
  add_spec_option(app, specs, "--kernel", o.kernel);
  add_spec_option(app, specs, "--ell", o.ell);
}

Kernel to_kernel(const KernelOptions& o) { return Kernel::from_name(o.kernel, o.ell); }

void add_hyper_options(CLI::App* app, HyperOptions& o) {
  const auto specs = options::hyper_options(o.r, o.sigma, o.eta);
  add_spec_option(app, specs, "--r", o.r);
  add_spec_option(app, specs, "--sigma", o.sigma);
  add_spec_option(app, specs, "--eta", o.eta);
}

Hyperparameters to_hyperparameters(const HyperOptions& o) {
  require(std::isfinite(o.r) && o.r > 0, fmt::format("--r must be positive, got {}", o.r));
  require(std::isfinite(o.sigma) && o.sigma > 0,
          fmt::format("--sigma must be positive, got {}", o.sigma));
  require(std::isfinite(o.eta) && o.eta >= 0, fmt::format("--eta must be ≥ 0, got {}", o.eta));
  return {o.r, o.sigma};
}

void add_data_options(CLI::App* app, DataOptions& o, bool required) {
  const auto specs = release::data_options(required);
  add_spec_option(app, specs, "--data", o.path);
  add_spec_option(app, specs, "--x", o.x_columns);
  add_spec_option(app, specs, "--y", o.y_column);
}

Dataset load_data(const DataOptions& o) {
  return io::load_dataset(o.path, o.x_columns, o.y_column);
}

void add_points_options(CLI::App* app, PointsOptions& o) {
  const auto specs = release::points_options();
  auto* p = add_spec_option(app, specs, "--points", o.points_file);
  auto* g = add_spec_option(app, specs, "--grid", o.grid);
  auto* g2 = add_spec_option(app, specs, "--grid2d", o.grid2d);
  p->excludes(g)->excludes(g2);
  g->excludes(g2);
}

release::EvaluationSpec to_evaluation_spec(const PointsOptions& o, const std::string& mask_file) {
  const int given = !o.points_file.empty() + !o.grid.empty() + !o.grid2d.empty();
  require(given == 1,
          "give exactly one of --points FILE, --grid lo:hi:m, --grid2d lo:hi:m,lo:hi:m");
  require(mask_file.empty() || !o.grid2d.empty(), "--mask applies to --grid2d only");
  if (!o.points_file.empty()) return release::FilePoints{o.points_file};
  const bool one = !o.grid.empty();
  Grid grid = Grid::parse(one ? o.grid : o.grid2d);
  require(grid.dim() == (one ? 1 : 2),
          one ? "--grid needs one axis lo:hi:m" : "--grid2d needs two axes lo:hi:nx,lo:hi:ny");
  return release::GridPoints{std::move(grid), mask_file};
}

QueryPoints load_points(const PointsOptions& o, const std::vector<std::string>& names) {
  QueryPoints q;
  q.names = names;
  const int dim = static_cast<int>(names.size());
  const auto spec = to_evaluation_spec(o);
  if (const auto* f = std::get_if<release::FilePoints>(&spec)) {
    io::PointsFile file = io::read_points_file(f->file, names);
    q.points = std::move(file.points);
    q.names = std::move(file.names);
    return q;
  }
  const Grid& grid = std::get<release::GridPoints>(spec).grid;
  require(grid.dim() == dim,
          fmt::format("the grid has {} dimension(s) but the data have {}", grid.dim(), dim));
  q.points = grid.points();
  q.grid = grid;
  return q;
}

void add_posterior_query_options(CLI::App* app, PosteriorQueryOptions& o) {
  add_data_options(app, o.data);
  add_kernel_options(app, o.kernel);
  add_hyper_options(app, o.hyper);
  add_points_options(app, o.points);
}

PosteriorQuery load_posterior_query(const PosteriorQueryOptions& o) {
  return load_posterior_query(o, [](const Eigen::VectorXd& y) { return y; });
}

PosteriorQuery load_posterior_query(
    const PosteriorQueryOptions& o,
    const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& prepare) {
  const Kernel kernel = to_kernel(o.kernel);
  const Hyperparameters theta = to_hyperparameters(o.hyper);
  Dataset data = load_data(o.data);
  data.y = prepare(data.y);
  QueryPoints query = load_points(o.points, data.covariate_names);
  Posterior posterior(kernel, data.X, data.y, theta);
  return {std::move(data), std::move(query), std::move(posterior)};
}

nlohmann::json PosteriorQuery::summary(const std::string& command, double eta) const {
  return {{"command", command},
          {"data", data.source},
          {"n", data.n()},
          {"dim", data.dim()},
          {"m", query.points.rows()},
          {"kernel", posterior.kernel().name()},
          {"ell", posterior.kernel().lengthscale()},
          {"r", posterior.r()},
          {"sigma", posterior.sigma()},
          {"eta", eta}};
}

std::string points_csv(const QueryPoints& q, const Eigen::MatrixXd& values,
                       const std::vector<std::string>& value_names) {
  std::string text;
  text.reserve(static_cast<std::size_t>(values.size() + q.points.size()) * 20 + 64);
  for (std::size_t j = 0; j < q.names.size(); ++j)
    text += (j ? "," : "") + io::csv_field(q.names[j]);
  for (const auto& name : value_names) text += "," + io::csv_field(name);
  text += '\n';
  for (Eigen::Index i = 0; i < q.points.rows(); ++i) {
    for (Eigen::Index j = 0; j < q.points.cols(); ++j) {
      if (j) text += ',';
      text += io::format_number(q.points(i, j));
    }
    for (Eigen::Index l = 0; l < values.cols(); ++l) {
      text += ',';
      text += io::format_number(values(i, l));
    }
    text += '\n';
  }
  return text;
}

}  // namespace gpdp::cli
