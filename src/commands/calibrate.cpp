// gpdp calibrate: the smallest r / η / σ / s or the largest L meeting a target (ε₀, δ)
// (docs/mathematics.md §2), as one declared request (calibrate.hpp).
#include "gpdp/commands/calibrate.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/options/mechanism_flags.hpp"
#include "gpdp/privacy/json.hpp"
#include "options/model_options.hpp"

namespace gpdp::commands {

namespace {
using nlohmann::json;
using options::option;
using options::OptionType;
}  // namespace

std::vector<options::OptionSpec> calibrate_options() {
  const options::MechanismFlags d;
  const options::Accounting a;
  const std::vector<options::OptionSpec> goal{
      option("--target-epsilon", OptionType::Real, nullptr, "Target ε₀ > 0").as_required(),
      option("--solve", OptionType::Text, nullptr,
             "Parameter to solve for: r, eta, draws, sigma or noise (the functional mechanism's "
             "s)")
          .as_required()};
  auto specs = options::concat(goal, options::kernel_options(d.kernel, d.ell));
  specs = options::concat(specs, options::hyper_options(d.r, d.sigma, d.eta));
  specs = options::concat(specs, options::mechanism_options(options::MechanismFlagSet::Full));
  specs = options::concat(specs,
                          options::accounting_options(a.draws, privacy::to_string(a.conversion)));
  specs.push_back(option("--json", OptionType::Flag, false, "Print the solution as JSON")
                      .in_scope(options::OptionScope::Cli));
  return specs;
}

CalibrateCommand calibrate_request_from_json(const json& request) {
  options::check_request_keys(calibrate_options(), request, "calibrate");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CalibrateCommand c;
  c.solve = privacy::parse_calibration_parameter(options::text_or(request, "solve", ""));
  const double target_epsilon = options::real_or(request, "target-epsilon", nan);
  require_parameter(std::isfinite(target_epsilon) && target_epsilon > 0, "target_epsilon",
                    fmt::format("target_epsilon must be positive, got {}", target_epsilon));
  const options::Accounting accounting = options::read_accounting(request);
  c.draws = accounting.draws;
  c.target = {target_epsilon, accounting.delta, accounting.conversion};
  options::MechanismFlags flags;
  options::read_mechanism_flags(request, flags);
  // s is the unknown: any positive value lets the description validate.
  if (c.solve == privacy::CalibrationParameter::Noise && std::isnan(flags.noise_scale))
    flags.noise_scale = 1.0;
  c.mechanism = options::to_mechanism(flags);
  return c;
}

namespace {

json report_json(const CalibrateCommand& c, const privacy::Calibration& s,
                 const privacy::ResolvedBounds& b) {
  json j = privacy::brief_json(s.achieved);
  j["solve"] = privacy::to_string(c.solve);
  j["value"] = s.value;
  j["target_epsilon"] = c.target.epsilon;
  j["draws"] = s.draws;
  j["r"] = s.mechanism.r;
  j["sigma"] = privacy::number_or_inf(s.mechanism.sigma);
  j["eta"] = s.mechanism.eta;
  j["mechanism"] = privacy::to_string(s.mechanism.kind);
  j.update(privacy::noise_json(s.mechanism));
  j.erase("cells");  // this output has never shown the grid mean's cells
  j["Vn"] = b.Vn;
  j["Delta_n"] = b.Delta_n;
  j["kappa"] = b.kappa;
  j["sensitivity_lemma"] = privacy::to_string(s.mechanism.lemma);
  j["note"] = s.note;
  return j;
}

std::string report_text(const CalibrateCommand& c, const privacy::Calibration& s,
                        const privacy::ResolvedBounds& b) {
  const double target = c.target.epsilon;
  std::string out = c.solve == privacy::CalibrationParameter::Draws
                        ? fmt::format("draws    {}   (largest L with ε ≤ {})\n", s.draws, target)
                        : fmt::format("{:<8} {:.10g}   (smallest value with ε ≤ {})\n",
                                      privacy::to_string(c.solve), s.value, target);
  out += fmt::format("epsilon  {:.10g}   achieved at delta = {:g}, L = {}, alpha* = {:.8g}\n",
                     s.achieved.epsilon, s.achieved.delta, s.draws, s.achieved.alpha);
  out += fmt::format("theta    {}; Vn = {:.10g}, Delta_n = {:.10g} ({})\n",
                     options::mechanism_parameters(s.mechanism), b.Vn, b.Delta_n,
                     privacy::to_string(s.mechanism.lemma));
  const privacy::Conversion conv = c.target.conversion;
  out += fmt::format("conversion {}: {}\n", privacy::to_string(conv),
                     privacy::conversion_citation(conv));
  if (!s.note.empty()) out += fmt::format("note     {}\n", s.note);
  return out;
}

}  // namespace

CalibrateOutcome run_calibrate_command(const CalibrateCommand& c) {
  const privacy::Calibration s = privacy::calibrate(c.mechanism, c.draws, c.solve, c.target);
  const privacy::ResolvedBounds b = privacy::resolve_bounds(s.mechanism);
  return {report_json(c, s, b), report_text(c, s, b)};
}

}  // namespace gpdp::commands
