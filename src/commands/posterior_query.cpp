#include "gpdp/commands/posterior_query.hpp"

#include <fmt/format.h>

#include <cmath>

#include "evaluate_posterior.hpp"
#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/release/release_options.hpp"
#include "io/load_dataset.hpp"
#include "io/points_file.hpp"
#include "options/model_options.hpp"

namespace gpdp::commands {

std::vector<options::OptionSpec> posterior_query_options() {
  const PosteriorQueryRequest d;
  auto specs = options::concat(release::data_options(), options::kernel_options("exp", 1.0));
  specs = options::concat(specs, options::hyper_options(d.theta.r, d.theta.sigma, d.eta));
  // A release names the three "evaluation"; here each names itself, as their messages do.
  for (auto spec : release::points_options()) specs.push_back(spec.with_parameter(""));
  return specs;
}

std::vector<options::OptionSpec> posterior_output_options() {
  return {
      options::option("--out", options::OptionType::Text, nullptr,
                      "Output CSV (written whole or not at all)")
          .as_required(),
      options::option("--json", options::OptionType::Flag, false, "Print a JSON summary on stdout")
          .in_scope(options::OptionScope::Cli)};
}

PosteriorQueryRequest read_posterior_query(const nlohmann::json& request) {
  PosteriorQueryRequest q;
  q.data = request.value("data", q.data);
  q.x = request.value("x", q.x);
  q.y = request.value("y", q.y);
  q.kernel = Kernel::from_name(request.value("kernel", std::string("exp")),
                               options::real_or(request, "ell", 1.0));
  q.theta.r = options::real_or(request, "r", q.theta.r);
  q.theta.sigma = options::real_or(request, "sigma", q.theta.sigma);
  q.eta = options::real_or(request, "eta", q.eta);
  require_parameter(std::isfinite(q.theta.r) && q.theta.r > 0, "r",
                    fmt::format("r must be positive, got {}", q.theta.r));
  require_parameter(std::isfinite(q.theta.sigma) && q.theta.sigma > 0, "sigma",
                    fmt::format("sigma must be positive, got {}", q.theta.sigma));
  require_parameter(std::isfinite(q.eta) && q.eta >= 0, "eta",
                    fmt::format("eta must be ≥ 0, got {}", q.eta));
  q.points = request.value("points", q.points);
  q.grid = request.value("grid", q.grid);
  q.grid2d = request.value("grid2d", q.grid2d);
  return q;
}

namespace {

// Exactly one of points, grid (one axis), grid2d (two axes); a grid has the data's dimension.
QueryPoints load_points(const PosteriorQueryRequest& q, const std::vector<std::string>& names) {
  const int given = !q.points.empty() + !q.grid.empty() + !q.grid2d.empty();
  if (given != 1) {
    throw ParameterError({"points", "grid", "grid2d"},
                         "give exactly one of points FILE, grid lo:hi:m, grid2d lo:hi:m,lo:hi:m");
  }
  QueryPoints out;
  out.names = names;
  if (!q.points.empty()) {
    io::PointsFile file = io::read_points_file(q.points, names);
    out.points = std::move(file.points);
    out.names = std::move(file.names);
    return out;
  }
  const bool one = !q.grid.empty();
  Grid grid = Grid::parse(one ? q.grid : q.grid2d);
  if (one) {
    require_parameter(grid.dim() == 1, "grid", "grid needs one axis lo:hi:m");
  } else {
    require_parameter(grid.dim() == 2, "grid2d", "grid2d needs two axes lo:hi:nx,lo:hi:ny");
  }
  require(
      grid.dim() == static_cast<int>(names.size()),
      fmt::format("the grid has {} dimension(s) but the data have {}", grid.dim(), names.size()));
  out.points = grid.points();
  out.grid = std::move(grid);
  return out;
}

}  // namespace

PosteriorQuery load_posterior_query(
    const PosteriorQueryRequest& q,
    const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& prepare) {
  Dataset data = io::load_dataset(q.data, q.x, q.y);
  if (prepare) data.y = prepare(data.y);
  QueryPoints query = load_points(q, data.covariate_names);
  Posterior posterior(q.kernel, data.X, data.y, q.theta);
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

}  // namespace gpdp::commands
