// gpdp calibrate: the smallest r / η / σ or the largest L meeting a target (ε₀, δ)
// (docs/mathematics.md §2).
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/privacy/json.hpp"
#include "privacy_options.hpp"

namespace gpdp::cli {

namespace {

struct CalibrateArgs {
  KernelOptions kernel;
  HyperOptions hyper;
  MechanismOptions mech;
  AccountingOptions acc;
  double target_epsilon = std::numeric_limits<double>::quiet_NaN();
  std::string solve;
  bool json = false;
};

void run(const CalibrateArgs& a) {
  const auto what = privacy::parse_calibration_parameter(a.solve);
  require(std::isfinite(a.target_epsilon) && a.target_epsilon > 0,
          fmt::format("--target-epsilon must be positive, got {}", a.target_epsilon));
  const auto conv = to_conversion(a.acc);
  MechanismOptions given = a.mech;
  // s is the unknown: any positive value lets the description validate.
  if (what == privacy::CalibrationParameter::Noise && std::isnan(given.noise_scale))
    given.noise_scale = 1.0;
  const auto mech = to_mechanism(given, a.kernel, a.hyper);
  const auto c = privacy::calibrate(mech, a.acc.draws, what, {a.target_epsilon, a.acc.delta, conv});
  const auto b = privacy::resolve_bounds(c.mechanism);
  if (a.json) {
    nlohmann::json j = privacy::brief_json(c.achieved);
    j["solve"] = privacy::to_string(what);
    j["value"] = c.value;
    j["target_epsilon"] = a.target_epsilon;
    j["draws"] = c.draws;
    j["r"] = c.mechanism.r;
    j["sigma"] = privacy::number_or_inf(c.mechanism.sigma);
    j["eta"] = c.mechanism.eta;
    j["mechanism"] = privacy::to_string(c.mechanism.kind);
    j.update(privacy::noise_json(c.mechanism));
    j.erase("cells");  // this output has never shown the grid mean's cells
    j["Vn"] = b.Vn;
    j["Delta_n"] = b.Delta_n;
    j["kappa"] = b.kappa;
    j["sensitivity_lemma"] = privacy::to_string(c.mechanism.lemma);
    j["note"] = c.note;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  if (what == privacy::CalibrationParameter::Draws) {
    fmt::print("draws    {}   (largest L with ε ≤ {})\n", c.draws, a.target_epsilon);
  } else {
    fmt::print("{:<8} {:.10g}   (smallest value with ε ≤ {})\n", privacy::to_string(what), c.value,
               a.target_epsilon);
  }
  fmt::print("epsilon  {:.10g}   achieved at delta = {:g}, L = {}, alpha* = {:.8g}\n",
             c.achieved.epsilon, c.achieved.delta, c.draws, c.achieved.alpha);
  fmt::print("theta    {}; Vn = {:.10g}, Delta_n = {:.10g} ({})\n",
             mechanism_parameters(c.mechanism), b.Vn, b.Delta_n,
             privacy::to_string(c.mechanism.lemma));
  fmt::print("conversion {}: {}\n", privacy::to_string(conv), privacy::conversion_citation(conv));
  if (!c.note.empty()) fmt::print("note     {}\n", c.note);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "calibrate",
      "Find the smallest r, η, σ or noise scale s (--mechanism functional or grid-mean), or the\n"
      "largest number\n"
      "of draws L, whose exact accountant\n"
      "ε (at --delta, --conversion) meets --target-epsilon; the other parameters are as given.\n"
      "The answer is re-accounted and verified. Infeasible targets are refused with the reason.");
  auto args = std::make_shared<CalibrateArgs>();
  sub->add_option("--target-epsilon", args->target_epsilon, "Target ε₀ > 0")->required();
  sub->add_option(
         "--solve", args->solve,
         "Parameter to solve for: r, eta, draws, sigma or noise (the functional mechanism's s)")
      ->required();
  add_kernel_options(sub, args->kernel);
  add_hyper_options(sub, args->hyper);
  add_mechanism_options(sub, args->mech);
  add_accounting_options(sub, args->acc);
  sub->add_flag("--json", args->json, "Print the solution as JSON");
  sub->footer(
      "Example: gpdp calibrate --target-epsilon 10 --delta 0.005 --solve r --kernel exp1d --ell "
      "0.5 "
      "--n 100 --sigma 1 --sensitivity b7");
  sub->callback([args] { run(*args); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
