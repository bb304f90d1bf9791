#pragma once
// The run half of commands/posterior_query.hpp, for gpdp sample's and gpdp posterior's runs: the
// data read, the posterior fitted and the query points resolved; the CSV both write.
#include <Eigen/Core>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/commands/posterior_query.hpp"
#include "gpdp/dataset.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/posterior.hpp"

namespace gpdp::commands {

struct QueryPoints {
  Points points;
  std::optional<Grid> grid;        // set when the points form a regular grid
  std::vector<std::string> names;  // the coordinate columns (the data's covariates or x1..xd)
};

struct PosteriorQuery {
  Dataset data;
  QueryPoints query;
  Posterior posterior;
  // The summary fields both commands report: command, data, n, dim, m, kernel, ell, r, sigma, eta.
  nlohmann::json summary(const std::string& command, double eta) const;
};

// Reads the data, prepares their responses with `prepare` (none: as read), then resolves the
// points (exactly one of points, grid with one axis, grid2d with two; the grid's dimension must be
// the data's; a points file is read by io::read_points_file) and fits the posterior.
PosteriorQuery load_posterior_query(
    const PosteriorQueryRequest& q,
    const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& prepare = {});

// CSV text with one row per query point: x1..xd, then the columns of `values` under
// `value_names` (one name per column).
std::string points_csv(const QueryPoints& q, const Eigen::MatrixXd& values,
                       const std::vector<std::string>& value_names);

}  // namespace gpdp::commands
