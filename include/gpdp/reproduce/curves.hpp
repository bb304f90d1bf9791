#pragma once
// `gpdp-lab curves` as one declared request: the (ε, δ) curves of the paper's Figure 1 (ε vs r,
// vs σ and vs the number of draws L; generic Δ_n by Lemma B.1, RKHS Δ_n by Lemma B.8, added noise
// η = σ) for both conversions, as a CSV and a figure. curves_options() is the command's options
// table (lab::command_options("curves")), curves_request_from_json the one reader of its request
// (errors name parameters: "points", "format", ...), run_curves the run.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::reproduce {

// --out, --format, --n, --delta, --kappa2, --M-Y, --rkhs-norm, --points.
std::vector<options::OptionSpec> curves_options();

struct CurvesRequest {
  std::string out_dir;         // created if missing
  std::string format = "png";  // the figure's: png or svg
  long n = 1000;               // dataset size
  double delta = 5e-4;
  double kappa2 = 0.1;  // κ² of a kernel with k(x, x) = 1 (V_n = V̄_n)
  double M_Y = 1.0;
  double rkhs_norm = 3.0;  // ‖f*‖_H of the Lemma B.8 panels
  int points = 40;         // per curve
};

CurvesRequest curves_request_from_json(const nlohmann::json& request);

struct CurvesOutput {
  std::string csv_path, figure_path;
};
// Draws the 3 × 3 panels (rows: ε vs r, vs σ, vs L; columns: the settings), writes
// OUT/curves.csv (every point) and OUT/curves.<format> atomically; `progress` hears each setting's
// name as it starts.
CurvesOutput run_curves(const CurvesRequest& request,
                        const std::function<void(const std::string&)>& progress);

}  // namespace gpdp::reproduce
