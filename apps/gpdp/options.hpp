#pragma once
// Flag groups shared by several subcommands, so that --kernel, --ell, --r, --sigma, --data, --grid
// mean the same everywhere. Each add_* registers the flags on a subcommand; each to_* / load_*
// validates and converts after parsing (throwing gpdp::InputError with the flag's name).
#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/dataset.hpp"
#include "gpdp/domain.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/request.hpp"

namespace gpdp::cli {

struct KernelOptions {
  std::string kernel = "exp";
  double ell = 1.0;
};
void add_kernel_options(CLI::App* app, KernelOptions& o);
Kernel to_kernel(const KernelOptions& o);

struct HyperOptions {
  double r = 1.0;
  double sigma = 1.0;
  double eta = 0.0;
};
void add_hyper_options(CLI::App* app, HyperOptions& o);
Hyperparameters to_hyperparameters(const HyperOptions& o);  // checks r > 0, σ > 0, η ≥ 0

struct DataOptions {
  std::string path;
  std::vector<std::string> x_columns;  // default x1..xd
  std::string y_column = "y";
};
void add_data_options(CLI::App* app, DataOptions& o, bool required = true);
Dataset load_data(const DataOptions& o);

// Where to evaluate: exactly one of --points FILE, --grid lo:hi:m, --grid2d lo:hi:m,lo:hi:m.
struct PointsOptions {
  std::string points_file;
  std::string grid;
  std::string grid2d;
};
void add_points_options(CLI::App* app, PointsOptions& o);
// The one place that checks "exactly one of --points/--grid/--grid2d" and parses the grid (with
// the number of axes its flag promises); `mask_file` (--mask) only with --grid2d.
release::EvaluationSpec to_evaluation_spec(const PointsOptions& o,
                                           const std::string& mask_file = "");
struct QueryPoints {
  Points points;
  std::optional<Grid> grid;        // set when the points form a regular grid
  std::vector<std::string> names;  // the coordinate columns (the data's covariates or x1..xd)
};
// `names`: the data's covariate columns (--x); a points file is read by io::read_points_file.
QueryPoints load_points(const PointsOptions& o, const std::vector<std::string>& names);

// The flag groups of a command that fits the posterior to --data and evaluates it at query points
// (gpdp sample, gpdp posterior).
struct PosteriorQueryOptions {
  DataOptions data;
  KernelOptions kernel;
  HyperOptions hyper;
  PointsOptions points;
};
void add_posterior_query_options(CLI::App* app, PosteriorQueryOptions& o);
struct PosteriorQuery {
  Dataset data;
  QueryPoints query;
  Posterior posterior;
  // The summary fields both commands print: command, data, n, dim, m, kernel, ell, r, sigma, eta.
  nlohmann::json summary(const std::string& command, double eta) const;
};
PosteriorQuery load_posterior_query(const PosteriorQueryOptions& o);
// The same with the responses prepared first by `prepare` (e.g. a release's public transform).
PosteriorQuery load_posterior_query(
    const PosteriorQueryOptions& o,
    const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& prepare);

// CSV text with one row per query point: x1..xd, then the columns of `values` under
// `value_names` (one name per column).
std::string points_csv(const QueryPoints& q, const Eigen::MatrixXd& values,
                       const std::vector<std::string>& value_names);

}  // namespace gpdp::cli
