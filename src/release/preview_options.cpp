#include "preview_options.hpp"

#include "gpdp/release/release_options.hpp"
#include "options/model_options.hpp"

namespace gpdp::release {

namespace {
using options::concat;
using options::option;
using options::OptionScope;
using options::OptionType;

// --public-data, --x, --y: the proxy's columns (and the mask's coordinate columns).
std::vector<options::OptionSpec> proxy_options() {
  return {option("--public-data", OptionType::Text, nullptr,
                 "Public proxy data with the release's columns (an earlier year, a neighbouring "
                 "region): simulated private sets resample it and θ is chosen on it"),
          option("--x", OptionType::TextList, nullptr,
                 "Covariate columns of --public-data AND the coordinate columns of --mask "
                 "(default x1, x2, ...), as in gpdp release"),
          option("--y", OptionType::Text, "y", "Response column of --public-data")};
}

// --sigma, --r: no default (chosen on --public-data, else required by the preview).
std::vector<options::OptionSpec> theta_options() {
  return {option("--sigma", OptionType::Real, nullptr,
                 "Prior scale σ (default: chosen on --public-data; required without it)"),
          option("--r", OptionType::Real, nullptr,
                 "Ridge r of the non-private reference posterior and of the simulated noise "
                 "(default: chosen on --public-data; required without it)")};
}

std::vector<options::OptionSpec> preview_own_options() {
  return {
      option("--mask", OptionType::Text, nullptr,
             "Public CSV of points: with --grid2d, evaluate only the cells within half a step of "
             "one of them (as gpdp release); its coordinate columns are named by --x (default "
             "x1, x2)")
          .with_parameter("mask_file"),
      option("--threshold", OptionType::Real, nullptr,
             "Excursion threshold t in response units (after --transform)")
          .with_alias("-t")
          .as_required(),
      option("--sensitivity", OptionType::Text, "b1-sharp",
             "Δ_n lemma, as gpdp release: b1-sharp (Lemma S.1, the default), b1 (Lemma B.1), b4 "
             "(constant kernel), b5 (diagonal kernel), b7 (exponential kernel in 1-D)"),
      option("--delta", OptionType::Real, nullptr, "δ of the (ε, δ) guarantee").as_required(),
      option("--conversion", OptionType::Text, "cks", "RDP → (ε, δ): cks or mironov"),
      option("--n", OptionType::Integer, nullptr,
             "Size of the private data set (public; required without --calibrate-epsilon, where "
             "it is --data's)"),
      option("--epsilons", OptionType::RealList, nullptr, "ε targets, e.g. 1,3,10").as_required(),
      option("--draws-grid", OptionType::RealList, nlohmann::json::array({1, 3, 5, 9}),
             "Numbers of paths L tried (the first must be 1)"),
      option("--bandwidths", OptionType::RealList, nlohmann::json::array({0.5, 1.0, 2.0}),
             "Smoothing bandwidths tried besides none, as multiples of ℓ (at most a quarter of "
             "the grid's shorter side; 2-D grids)"),
      option("--no-functional", OptionType::Flag, false,
             "Leave the functional Gaussian mechanism out of the candidates"),
      option("--no-grid-mean", OptionType::Flag, false,
             "Leave the grid mean out of the candidates"),
      option("--no-sign", OptionType::Flag, false,
             "Leave the sign-clipped responses out of the candidates (tried only when the "
             "threshold is the centre)"),
      option("--sigma-factors", OptionType::RealList, nlohmann::json::array({0.1}),
             "Small-σ candidates: r-calibrated at σ × these (empty: none)"),
      option("--prior-mean-fraction", OptionType::Real, 0.1,
             "Private prior mean candidates: the fraction of ε spent on the mean (0: none)"),
      option("--simulations", OptionType::Integer, 16,
             "Simulated private sets per half (tuning, held out)"),
      option("--seed", OptionType::Integer, 1,
             "Seed of the simulations (the preview is reproducible)"),
      option("--threads", OptionType::Integer, 0, "Worker threads (0 = all cores)"),
      option("--out", OptionType::Text, nullptr, "Folder for preview.json and preview.png")
          .with_alias("-o")
          .with_parameter("out_dir")
          .as_required(),
      option("--image", OptionType::Text, "png", "Plot format: png or svg")
          .with_parameter("image_format"),
      option("--json", OptionType::Flag, false, "Print preview.json instead of the table")
          .in_scope(OptionScope::Cli),
      option("--quiet", OptionType::Flag, false, "No progress on stderr")
          .in_scope(OptionScope::Cli),
      option("--calibrate-epsilon", OptionType::Real, nullptr,
             "Spend this ε (recorded in --ledger as a release of --dataset) on `--mechanism "
             "auto`'s DP summary of --data and a label statistic (half each) and predict auto's "
             "candidates, each calibrated to "
             "every --epsilons target, on simulations calibrated by it: accuracy with a 5-95 % "
             "interval and IoU per candidate (docs/utility.md \"A calibrated preview\"). Without "
             "it the prediction is uncalibrated (public inputs only)"),
      option("--data", OptionType::Text, nullptr,
             "With --calibrate-epsilon: the private records (CSV with the --x and --y columns), "
             "read through the same input options as gpdp release"),
      option("--dataset", OptionType::Text, nullptr,
             "With --calibrate-epsilon: the dataset the summary's ε is charged to"),
      option("--ledger", OptionType::Text, nullptr,
             "With --calibrate-epsilon: the budget ledger (SQLite; created if missing)"),
      option("--ledger-key", OptionType::Text, nullptr,
             "With --calibrate-epsilon: the ledger's key (default: <ledger>.key)"),
      option("--budget-epsilon", OptionType::Real, nullptr,
             "With --calibrate-epsilon: the dataset's total ε budget (fixed at its first "
             "release)"),
      option("--budget-delta", OptionType::Real, nullptr,
             "With --calibrate-epsilon: the dataset's total δ budget"),
      option("--insecure-seed", OptionType::Integer, nullptr,
             "With --calibrate-epsilon: seed the summary's RNG (reproducible, NOT PRIVATE: the "
             "report says so); default: the secure generator"),
  };
}

}  // namespace

std::vector<options::OptionSpec> preview_options() {
  auto specs = concat(input_options(), proxy_options());
  specs = concat(specs, options::kernel_options("exp", 1.0));
  specs = concat(specs, theta_options());
  specs = concat(specs, points_options());
  return concat(specs, preview_own_options());
}

}  // namespace gpdp::release
