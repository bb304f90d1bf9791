#pragma once
// What `gpdp sample` and `gpdp posterior` share (commands/sample.hpp, commands/posterior.hpp): the
// posterior fitted to a data file (--data,
// --x, --y, the kernel and θ) and the points it is evaluated at (exactly one of --points, --grid,
// --grid2d), as options and as the part of the request that names them.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/kernel.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/posterior.hpp"

namespace gpdp::commands {

// --data (required), --x, --y, --kernel, --ell, --r, --sigma, --eta, --points, --grid, --grid2d.
// Each of the three point options names its own parameter (points, grid, grid2d).
std::vector<options::OptionSpec> posterior_query_options();
// --out (required: the CSV written whole or not at all) and --json (the CLI's own), last in both
// commands' tables.
std::vector<options::OptionSpec> posterior_output_options();

struct PosteriorQueryRequest {
  std::string data;            // the data file
  std::vector<std::string> x;  // covariate columns (empty: x1, x2, ...)
  std::string y = "y";         // the response column
  Kernel kernel = Kernel::exponential(1.0);
  Hyperparameters theta{1.0, 1.0};  // r > 0, σ > 0
  double eta = 0.0;                 // η ≥ 0: the path is f_D + g, g ~ GP(0, η² k)
  // The points as given: a points file, a 1-D grid or a 2-D grid (exactly one; checked when the
  // data are read, which comes first).
  std::string points;
  std::string grid;
  std::string grid2d;
};

// The request's data, model and points (absent keys: the defaults above), checked in this order:
// the kernel (Kernel::from_name), r > 0, σ > 0, η ≥ 0 (ParameterError naming the parameter).
PosteriorQueryRequest read_posterior_query(const nlohmann::json& request);

}  // namespace gpdp::commands
