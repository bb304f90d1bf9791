// The one reader of gpdp preview's options (request_from_json.hpp).
#include "gpdp/preview/request_from_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "gpdp/error.hpp"
#include "gpdp/release/release_options.hpp"
#include "release/option_values.hpp"
#include "release/preview_options.hpp"

namespace gpdp::preview {

namespace {

using nlohmann::json;
using release::OptionValues;

// The request with the table's defaults of the options not given, but for the input's (an input
// config file's values give way only to the options given: release::read_input) and ℓ (absent:
// chosen on the proxy).
json with_defaults(json request) {
  std::set<std::string> keep_absent{"x", "y", "ell"};
  for (const auto& spec : release::input_options()) keep_absent.insert(options::key_of(spec));
  for (const auto& spec : release::preview_options()) {
    const std::string key = options::key_of(spec);
    if (spec.scope != options::OptionScope::Request || spec.default_value.is_null() ||
        keep_absent.count(key) > 0 || request.contains(key))
      continue;
    request[key] = spec.default_value;
  }
  return request;
}

std::optional<double> optional_number(const OptionValues& o, const std::string& key) {
  return o.has(key) ? std::optional<double>(o.number(key)) : std::nullopt;
}

std::vector<int> whole_numbers(const OptionValues& o, const std::string& key) {
  std::vector<int> out;
  for (double v : o.numbers(key)) {
    if (v != std::floor(v) || std::abs(v) > 1e9)
      o.fail(key, fmt::format("expected whole numbers, got {}", v));
    out.push_back(static_cast<int>(v));
  }
  return out;
}

// The calibrated preview's own options, and its refusals before anything is spent.
void read_calibration(const OptionValues& o, PreviewCommand& c) {
  c.calibrate_epsilon = o.number("calibrate-epsilon");
  if (!(std::isfinite(*c.calibrate_epsilon) && *c.calibrate_epsilon > 0))
    throw ParameterError(
        {"calibrate_epsilon"},
        fmt::format("calibrate_epsilon must be positive and finite, got {}", *c.calibrate_epsilon));
  for (const char* key : {"data", "dataset", "ledger"})
    if (!o.has(key))
      throw ParameterError({"calibrate_epsilon", "data", "dataset", "ledger"},
                           fmt::format("calibrate_epsilon spends ε on the private records: it "
                                       "needs data, dataset and ledger ({} is missing); nothing "
                                       "was spent",
                                       key));
  if (o.has("public-data"))
    throw ParameterError({"calibrate_epsilon", "public_data"},
                         "calibrate_epsilon calibrates the simulations by the private summary: "
                         "leave public_data out");
  if (o.has("budget-epsilon") != o.has("budget-delta"))
    throw ParameterError({"budget_epsilon", "budget_delta"},
                         "budget_epsilon and budget_delta go together");
  c.data = o.path("data");
  c.dataset = o.text("dataset");
  c.ledger = o.path("ledger");
  if (o.has("ledger-key")) c.ledger_key = o.path("ledger-key");
  if (o.has("budget-epsilon"))
    c.budget = privacy::Budget{o.number("budget-epsilon"), o.number("budget-delta")};
  if (o.has("insecure-seed")) c.insecure_seed = o.unsigned_integer("insecure-seed");
}

// Without calibrate_epsilon the preview reads nothing private: the options that would are refused.
void refuse_calibration_options(const OptionValues& o) {
  for (const char* key : {"data", "dataset", "ledger", "ledger-key", "budget-epsilon",
                          "budget-delta", "insecure-seed"})
    if (o.has(key)) {
      const std::string parameter = options::parameter_of_flag(std::string("--") + key);
      throw ParameterError({parameter, "calibrate_epsilon"},
                           fmt::format("{} belongs to calibrate_epsilon (without it the preview "
                                       "reads no private records)",
                                       parameter));
    }
  if (!o.has("n"))
    throw ParameterError({"n", "calibrate_epsilon"},
                         "n (the private data set's size) is required without calibrate_epsilon");
  const std::string image = o.text("image");
  if (image != "png" && image != "svg") o.fail("image", "must be png or svg");
}

}  // namespace

PreviewCommand preview_request_from_json(const json& request, const std::filesystem::path& base) {
  options::check_request_keys(release::preview_options(), request, "preview");
  const OptionValues o(with_defaults(request), "", base, release::KeyNames::Parameters);
  PreviewCommand c;
  release::read_input(o, c.input);
  c.evaluation = release::read_evaluation(o);
  if (o.has("grid")) c.grid_text = o.text("grid");
  if (o.has("grid2d")) c.grid_text = o.text("grid2d");
  if (o.has("mask")) c.mask = o.path("mask");
  if (o.has("public-data")) c.public_data = o.path("public-data");
  c.kernel = o.text("kernel");
  c.ell = optional_number(o, "ell");
  c.sigma = optional_number(o, "sigma");
  c.r = optional_number(o, "r");
  c.threshold = o.number("threshold");
  c.sensitivity = o.text("sensitivity");
  c.delta = o.number("delta");
  c.conversion = o.text("conversion");
  if (o.has("n")) c.n = static_cast<long>(o.integer("n"));
  c.epsilons = o.numbers("epsilons");
  c.draws = whole_numbers(o, "draws-grid");
  c.bandwidths = o.numbers("bandwidths");
  c.functional = !o.flag("no-functional");
  c.grid_mean = !o.flag("no-grid-mean");
  c.sign = !o.flag("no-sign");
  c.sigma_factors = o.numbers("sigma-factors");
  c.prior_mean_fraction = o.number("prior-mean-fraction");
  c.simulations = static_cast<int>(o.integer("simulations"));
  c.seed = o.unsigned_integer("seed");
  c.threads = static_cast<int>(o.integer("threads"));
  c.out = o.path("out");
  c.image = o.text("image");
  if (o.has("calibrate-epsilon")) {
    read_calibration(o, c);
  } else {
    refuse_calibration_options(o);
  }
  return c;
}

}  // namespace gpdp::preview
