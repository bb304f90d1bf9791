// Option values named like gpdp release's flags (option_values.hpp).
#include "option_values.hpp"

#include <fmt/format.h>

#include <limits>
#include <sstream>

#include "gpdp/options/mechanism_flags.hpp"
#include "gpdp/release/release_options.hpp"

namespace gpdp::release {

namespace fs = std::filesystem;
using nlohmann::json;

OptionValues::OptionValues(json values, std::string where, fs::path base, KeyNames names)
    : values_(std::move(values)), where_(std::move(where)), base_(std::move(base)), names_(names) {}

OptionValues declared_values(const std::vector<options::OptionSpec>& specs, const json& request,
                             const std::string& command, fs::path base) {
  options::check_request_keys(specs, request, command);
  OptionValues o(options::with_defaults(specs, request), "", std::move(base), KeyNames::Parameters);
  o.name_keys_by(specs);
  return o;
}

void OptionValues::name_keys_by(const std::vector<options::OptionSpec>& specs) {
  for (const auto& spec : specs) parameters_[options::key_of(spec)] = options::parameter_of(spec);
}

namespace {
// The parameter `gpdp release`'s options table declares for a key ("out" -> "out_dir").
std::string parameter_of_key(const std::string& key) {
  for (const auto& spec : release_options())
    if (options::key_of(spec) == key) return options::parameter_of(spec);
  return options::parameter_of_flag(key);
}
}  // namespace

void OptionValues::fail(const std::string& key, const std::string& message) const {
  const auto declared = parameters_.find(key);
  const std::string parameter =
      declared != parameters_.end() ? declared->second : parameter_of_key(key);
  const std::string name = names_ == KeyNames::Quoted ? fmt::format("'{}'", key) : parameter;
  const std::string what = fmt::format("{}: {}", name, message);
  throw ParameterError({names_ == KeyNames::Quoted ? key : parameter},
                       where_.empty() ? what : fmt::format("{}: {}", where_, what));
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

namespace {
bool is_infinity(const json& v) { return v == "inf" || v == "-inf"; }
}  // namespace

double OptionValues::number(const std::string& key) const {
  const json& v = get(key);
  if (!v.is_number() && !is_infinity(v))
    fail(key, fmt::format("expected a number, got {}", v.dump()));
  return options::real_from_json(v);
}

long long OptionValues::integer(const std::string& key) const {
  const json& v = get(key);
  if (!v.is_number_integer()) fail(key, fmt::format("expected an integer, got {}", v.dump()));
  return v.get<long long>();
}

std::uint64_t OptionValues::unsigned_integer(const std::string& key) const {
  const json& v = get(key);
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<long long>() >= 0)
    return static_cast<std::uint64_t>(v.get<long long>());
  if (v.is_number_integer()) fail(key, fmt::format("must be ≥ 0, got {}", v.dump()));
  fail(key, fmt::format("expected a whole number, got {}", v.dump()));
}

bool OptionValues::flag(const std::string& key) const {
  if (!has(key)) return false;
  const json& v = get(key);
  if (!v.is_boolean()) fail(key, fmt::format("expected true or false, got {}", v.dump()));
  return v.get<bool>();
}

std::string OptionValues::path(const std::string& key) const {
  if (base_.empty()) return text(key);
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
    if (!item.is_number() && !is_infinity(item))
      fail(key, fmt::format("expected numbers, got {}", item.dump()));
    out.push_back(options::real_from_json(item));
  }
  return out;
}

namespace {

using Options = OptionValues;

// The public parameters of one draw, validated one by one as account and calibrate validate them
// (options::to_mechanism_parameters); the rest of their checks is the release's accounting
// (privacy::resolve_bounds), which a batch runs for every release before recording any.
privacy::GpMechanism read_mechanism(const Options& o, bool solve_noise) {
  options::MechanismFlags f;
  if (o.has("kernel")) f.kernel = o.text("kernel");
  if (o.has("ell")) f.ell = o.number("ell");
  if (o.has("r")) f.r = o.number("r");
  if (o.has("sigma")) f.sigma = o.number("sigma");
  if (o.has("eta")) f.eta = o.number("eta");
  if (o.has("kappa")) f.kappa = o.number("kappa");
  if (o.has("Vn")) f.Vn = o.number("Vn");
  if (o.has("rkhs-norm")) f.rkhs_norm = o.number("rkhs-norm");
  if (o.has("Delta-n")) f.Delta_n = o.number("Delta-n");
  if (o.has("sensitivity")) f.sensitivity = o.text("sensitivity");
  // auto: the candidates start from the posterior sample (auto_mechanism.hpp).
  if (o.has("mechanism") && o.text("mechanism") != "auto") f.mechanism = o.text("mechanism");
  if (o.has("noise-scale")) f.noise_scale = o.number("noise-scale");
  // The noise scale solved by target-epsilon (solve noise) needs no value to start from.
  if (solve_noise && !o.has("noise-scale") &&
      privacy::has_noise_scale(privacy::parse_mechanism_kind(f.mechanism)))
    f.noise_scale = 1.0;
  return options::to_mechanism_parameters(f);
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
  for (const char* key : {"solve", "noise-scale", "cells", "prior-mean", "grid-map",
                          "snap-covariates", "config-from"})
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
    // Above what the machine holds, the release refuses with the memory it would need.
    if (draws < 1) o.fail("draws", fmt::format("must be ≥ 1, got {}", draws));
    if (draws > std::numeric_limits<int>::max())
      o.fail("draws",
             fmt::format("must be at most {}, got {}", std::numeric_limits<int>::max(), draws));
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
