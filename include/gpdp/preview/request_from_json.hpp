#pragma once
// The one reader of `gpdp preview`'s options: a JSON request (keys: the request keys of
// release::preview_options(), e.g. {"domain": "0:1,0:1", "grid2d": "0:1:64,0:1:64", "n": 400,
// "epsilons": [1, 3, 10], ...}) to the typed PreviewCommand, every option's check made here once.
// The CLI builds the request from argv through the options table (apps/gpdp/cmd_preview.cpp,
// --print-request shows it); Python's gpdp.preview.command(**options) sends one. The request holds
// only the options given; the reader applies the table's defaults (the input options' only under
// an input config file's values: release::read_input, shared with gpdp release's reader).
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/privacy/filter.hpp"
#include "gpdp/release/request.hpp"

namespace gpdp::preview {

struct PreviewCommand {
  release::InputSpec input;
  release::EvaluationSpec evaluation = release::FilePoints{};
  std::string grid_text;    // the grid or grid2d as given ("" with points)
  std::string mask;         // the mask file ("" without one)
  std::string public_data;  // the proxy file ("" without one)
  std::string kernel;
  std::optional<double> ell, sigma, r;  // absent: chosen on the proxy
  double threshold = 0.0;
  std::string sensitivity;
  double delta = 0.0;
  std::string conversion;
  std::optional<long> n;
  std::vector<double> epsilons;
  std::vector<int> draws;
  std::vector<double> bandwidths;
  bool functional = true, grid_mean = true, sign = true;
  std::vector<double> sigma_factors;
  double prior_mean_fraction = 0.0;
  int simulations = 0;
  std::uint64_t seed = 0;
  int threads = 0;
  std::string out;
  std::string image;
  // With calibrate_epsilon (the calibrated preview): the private records, their ledger, the
  // dataset's budget and the summary's seed; without it none of these may be given.
  std::optional<double> calibrate_epsilon;
  std::string data, dataset, ledger, ledger_key;
  std::optional<privacy::Budget> budget;
  std::optional<std::uint64_t> insecure_seed;
};

// Errors are ParameterErrors naming the parameters of the options table (options::parameter_of:
// "n", "calibrate_epsilon", "evaluation", "out_dir"); each front end spells them its own way.
// Relative paths are relative to `base` (kept as given when empty).
PreviewCommand preview_request_from_json(const nlohmann::json& request,
                                         const std::filesystem::path& base = {});

}  // namespace gpdp::preview
