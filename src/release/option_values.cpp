// Option values named like gpdp release's flags (option_values.hpp).
#include "gpdp/release/option_values.hpp"

#include <fmt/format.h>

#include <sstream>

namespace gpdp::release {

namespace fs = std::filesystem;
using nlohmann::json;

OptionValues::OptionValues(json values, std::string where, fs::path base)
    : values_(std::move(values)), where_(std::move(where)), base_(std::move(base)) {}

void OptionValues::fail(const std::string& key, const std::string& message) const {
  throw ParameterError({key}, fmt::format("{}: '{}': {}", where_, key, message));
}

const json& OptionValues::get(const std::string& key) const {
  if (!has(key)) fail(key, "required");
  return values_.at(key);
}

std::string OptionValues::text(const std::string& key) const {
  const json& v = get(key);
  if (!v.is_string()) fail(key, fmt::format("expected a string, got {}", v.dump()));
  return v.get<std::string>();
}

double OptionValues::number(const std::string& key) const {
  const json& v = get(key);
  if (!v.is_number()) fail(key, fmt::format("expected a number, got {}", v.dump()));
  return v.get<double>();
}

long long OptionValues::integer(const std::string& key) const {
  const json& v = get(key);
  if (!v.is_number_integer()) fail(key, fmt::format("expected an integer, got {}", v.dump()));
  return v.get<long long>();
}

bool OptionValues::flag(const std::string& key) const {
  if (!has(key)) return false;
  const json& v = get(key);
  if (!v.is_boolean()) fail(key, fmt::format("expected true or false, got {}", v.dump()));
  return v.get<bool>();
}

std::string OptionValues::path(const std::string& key) const {
  return (base_ / text(key)).lexically_normal().string();
}

std::vector<std::string> OptionValues::names(const std::string& key) const {
  const json& v = get(key);
  std::vector<std::string> out;
  if (v.is_string()) {
    std::stringstream ss(v.get<std::string>());
    for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
    return out;
  }
  if (!v.is_array()) fail(key, fmt::format("expected \"a,b\" or a list, got {}", v.dump()));
  for (const auto& item : v) {
    if (!item.is_string()) fail(key, fmt::format("expected strings, got {}", item.dump()));
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::vector<double> OptionValues::numbers(const std::string& key) const {
  const json& v = get(key);
  if (!v.is_array()) fail(key, fmt::format("expected a list of numbers, got {}", v.dump()));
  std::vector<double> out;
  for (const auto& item : v) {
    if (!item.is_number()) fail(key, fmt::format("expected numbers, got {}", item.dump()));
    out.push_back(item.get<double>());
  }
  return out;
}

namespace {

using Options = OptionValues;

// The public parameters of one draw; their ranges are checked by the release's accounting
// (privacy::resolve_bounds), which the batch runs for every release before recording any.
privacy::GpMechanism read_mechanism(const Options& o, bool solve_noise) {
  privacy::GpMechanism m;
  const std::string kernel = o.has("kernel") ? o.text("kernel") : "exp";
  const double ell = o.has("ell") ? o.number("ell") : 1.0;
  try {
    m.kernel = Kernel::from_name(kernel, ell);
  } catch (const Error& e) {
    o.fail("kernel", e.what());
  }
  if (o.has("r")) m.r = o.number("r");
  if (o.has("sigma")) m.sigma = o.number("sigma");
  if (o.has("eta")) m.eta = o.number("eta");
  if (o.has("kappa")) m.kappa = o.number("kappa");
  if (o.has("Vn")) m.user_Vn = o.number("Vn");
  if (o.has("rkhs-norm")) m.rkhs_norm = o.number("rkhs-norm");
  if (o.has("Delta-n")) {
    m.lemma = privacy::SensitivityLemma::User;
    m.user_Delta_n = o.number("Delta-n");
  } else if (o.has("sensitivity")) {
    m.lemma = o.parsed("sensitivity", privacy::parse_sensitivity_lemma);
  }
  if (o.has("mechanism") && o.text("mechanism") != "auto")
    m.kind = o.parsed("mechanism", privacy::parse_mechanism_kind);
  if (o.has("noise-scale") && !privacy::has_noise_scale(m.kind))
    o.fail("noise-scale", "belongs to mechanism functional or grid-mean");
  if (privacy::has_noise_scale(m.kind))
    m.noise_scale = solve_noise && !o.has("noise-scale") ? 1.0 : o.number("noise-scale");
  return m;
}

}  // namespace

const std::set<std::string>& public_parameter_keys() {
  static const std::set<std::string> keys = {"kernel",
                                             "ell",
                                             "r",
                                             "sigma",
                                             "eta",
                                             "sensitivity",
                                             "kappa",
                                             "Vn",
                                             "Delta-n",
                                             "rkhs-norm",
                                             "mechanism",
                                             "noise-scale",
                                             "draws",
                                             "delta",
                                             "conversion",
                                             "target-epsilon",
                                             "solve",
                                             "threshold",
                                             "vote-cutoff",
                                             "smooth",
                                             "sampler",
                                             "cells",
                                             "prior-mean",
                                             "grid-map",
                                             "snap-covariates",
                                             "choose-fraction",
                                             "refuse-if-useless"};
  return keys;
}

// --mechanism auto (auto_mechanism.hpp): its own options; the candidates fix the rest.
void read_auto(const OptionValues& o, ReleaseRequest& q) {
  const bool chosen = o.has("mechanism") && o.text("mechanism") == "auto";
  for (const char* key : {"choose-fraction", "refuse-if-useless"})
    if (o.has(key) && !chosen) o.fail(key, "belongs to mechanism auto");
  if (!chosen) return;
  for (const char* key :
       {"solve", "noise-scale", "cells", "prior-mean", "grid-map", "snap-covariates"})
    if (o.has(key)) o.fail(key, "mechanism auto chooses it itself");
  if (!o.has("target-epsilon")) o.fail("target-epsilon", "required with mechanism auto");
  AutoSpec spec;
  if (o.has("choose-fraction")) spec.choose_fraction = o.number("choose-fraction");
  spec.refuse_if_useless = o.flag("refuse-if-useless");
  q.auto_mechanism = spec;
}

void read_public_parameters(const OptionValues& o, ReleaseRequest& q) {
  read_auto(o, q);
  const bool calibrate = o.has("target-epsilon");
  const bool grid_mean = o.has("mechanism") && o.text("mechanism") == "grid-mean";
  const std::string solve = o.has("solve") ? o.text("solve") : grid_mean ? "noise" : "r";
  if (o.has("solve") && !calibrate) o.fail("solve", "needs 'target-epsilon'");
  q.mechanism = read_mechanism(o, calibrate && solve == "noise");
  if (calibrate) {
    q.calibration = CalibrationGoal{privacy::CalibrationParameter::R, o.number("target-epsilon")};
    try {
      q.calibration->parameter = privacy::parse_calibration_parameter(solve);
    } catch (const Error& e) {
      o.fail("solve", e.what());
    }
  }
  if (o.has("draws")) {
    const long long draws = o.integer("draws");
    if (draws < 1 || draws > 100000) o.fail("draws", fmt::format("must be ≥ 1, got {}", draws));
    q.draws = static_cast<int>(draws);
  }
  q.delta = o.number("delta");
  if (!(q.delta > 0 && q.delta < 1))
    o.fail("delta", fmt::format("must lie in (0, 1), got {}", q.delta));
  if (o.has("conversion")) q.conversion = o.parsed("conversion", privacy::parse_conversion);
  q.threshold = o.number("threshold");
  if (o.has("vote-cutoff")) q.vote_cutoff = o.number("vote-cutoff");
  if (o.has("smooth")) q.smooth = o.number("smooth");
  if (o.has("sampler")) q.sampler = o.parsed("sampler", parse_sampler_method);
  if (o.has("snap-covariates")) q.snap_covariates = o.number("snap-covariates");
  if (o.has("cells")) q.cells = o.parsed("cells", parse_cells);
  if (o.has("grid-map")) q.grid_map = o.parsed("grid-map", parse_grid_map);
  if (o.has("prior-mean")) {
    const json& v = o.get("prior-mean");
    q.prior_mean = v.is_number() ? PriorMeanSpec{false, std::nullopt, v.get<double>(), std::nullopt}
                                 : o.parsed("prior-mean", parse_prior_mean);
  }
}

}  // namespace gpdp::release
