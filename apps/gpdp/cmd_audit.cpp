// gpdp audit: an empirical lower bound on the privacy loss, beside the proven upper bound.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/privacy/audit.hpp"
#include "gpdp/privacy/audit_report.hpp"
#include "gpdp/tasks/executor.hpp"
#include "privacy_options.hpp"

namespace gpdp::cli {

namespace {

struct AuditArgs {
  KernelOptions kernel;
  HyperOptions hyper;
  MechanismOptions mech;
  AccountingOptions acc;
  privacy::AuditSettings settings;
  std::string search = "gradient";
  bool no_continuation = false;
  bool no_sensitivity = false;
  bool json = false;
  bool quiet = false;
};

void print_json(const privacy::AuditReport& report, const privacy::GpMechanism& mech,
                const privacy::ResolvedBounds& b) {
  fmt::print("{}\n", privacy::audit_report_json(report, mech, b).dump(2));
}

void print_text(const privacy::AuditReport& report, const privacy::GpMechanism& mech,
                const privacy::ResolvedBounds& b) {
  fmt::print(
      "audit of {} draw(s): kernel {}, n = {}, {}, M_Y = {}, Delta_n = {:.6g} ({}), Vn = "
      "{:.6g}\n",
      report.draws, mech.kernel->name(), mech.n, mechanism_parameters(mech), mech.M_Y, b.Delta_n,
      privacy::to_string(mech.lemma), b.Vn);
  fmt::print("{:>12} {:>16} {:>16} {:>8}\n", "alpha", "RDP proven", "RDP found", "found/proven");
  const auto L = static_cast<double>(report.draws);
  for (const auto& o : report.orders) {
    fmt::print("{:>12.6g} {:>16.8g} {:>16.8g} {:>8.4f}{}\n", o.alpha, L * o.proven, L * o.lower,
               o.proven > 0 ? o.lower / o.proven : 0.0, o.violation ? "  VIOLATION" : "");
  }
  fmt::print(
      "(eps, delta = {:g}): proven eps = {:.8g} ({}), lower bound eps = {:.8g} "
      "(exact Gaussian mechanism of the best {} pair, distance {:.6g})\n",
      report.proven.delta, report.proven.epsilon, privacy::to_string(report.proven.conversion),
      report.epsilon_lower,
      mech.kind == privacy::MechanismKind::Functional ? "neighbouring" : "same-covariate",
      report.mean_distance);
  if (report.sensitivity_searched) {
    fmt::print(
        "mean sensitivity: proven Delta_n = {:.6g}, found {:.6g} ({:.4f}){}\n",
        report.sensitivity_proven, report.sensitivity_lower,
        report.sensitivity_proven > 0 ? report.sensitivity_lower / report.sensitivity_proven : 0.0,
        report.sensitivity_violation ? "  VIOLATION" : "");
  }
  const auto star = std::min_element(
      report.orders.begin(), report.orders.end(), [&](const auto& a, const auto& c) {
        return std::abs(a.alpha - report.proven.alpha) < std::abs(c.alpha - report.proven.alpha);
      });
  if (star != report.orders.end() && star->witness.X.rows() > 0 && !star->shape.summary.empty()) {
    fmt::print("witness at alpha = {:.6g}{}: {}\n", star->alpha,
               star->start.empty() ? "" : " (from: " + star->start + ")", star->shape.summary);
  }
  fmt::print("search: {}, {} evaluations, {} numerically singular candidates skipped, {}\n",
             privacy::to_string(report.search), report.evaluations, report.singular_skipped,
             report.rng);
}

void run(AuditArgs& a) {
  const auto mech = to_mechanism(a.mech, a.kernel, a.hyper);
  a.settings.conversion = to_conversion(a.acc);
  a.settings.delta = a.acc.delta;
  a.settings.draws = a.acc.draws;
  a.settings.search = privacy::parse_audit_search(a.search);
  a.settings.continuation = !a.no_continuation;
  a.settings.sensitivity = !a.no_sensitivity;
  auto progress = [&](const std::string& msg) {
    if (!a.quiet) fmt::print(stderr, "{}\n", msg);
  };
  tasks::ThreadExecutor executor(a.settings.threads);
  const auto report = privacy::audit(mech, a.settings, progress, &executor);
  const auto b = privacy::resolve_bounds(mech);
  if (a.json) {
    print_json(report, mech, b);
  } else {
    print_text(report, mech, b);
  }
  if (report.violation) {
    throw PrivacyError(
        "VIOLATION: a concrete neighbouring pair exceeds the proven bound (see the rows marked "
        "VIOLATION): the stated V_n / Δ_n or their assumptions are wrong");
  }
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "audit",
      "Search concrete neighbouring datasets D ~ D' (within --M-Y and the domain) and test sets\n"
      "for the largest EXACT Rényi divergence between the two released Gaussians, and compare it\n"
      "with the proven bound for the same flags (as for 'gpdp account'). Reports how tight the\n"
      "bound is; exits non-zero with VIOLATION if a concrete pair exceeds it. Seeded search.");
  auto args = std::make_shared<AuditArgs>();
  add_kernel_options(sub, args->kernel);
  add_hyper_options(sub, args->hyper);
  add_mechanism_options(sub, args->mech);
  add_accounting_options(sub, args->acc);
  sub->add_option("--alpha", args->settings.alphas,
                  "Rényi orders to audit (default: spread over the admissible range and α*)")
      ->delimiter(',');
  sub->add_option("--search", args->search,
                  "gradient (projected gradient ascent from structured, random and continuation "
                  "starts) or subplex (the original derivative-free random-restart search)")
      ->capture_default_str();
  sub->add_option("--restarts", args->settings.restarts,
                  "Random restarts per order and search mode (gradient: besides the structured "
                  "and continuation starts)")
      ->capture_default_str();
  sub->add_option("--evals", args->settings.max_evals,
                  "Objective (gradient: gradient) evaluations per local search")
      ->capture_default_str();
  sub->add_option("--test-points", args->settings.extra_test_points,
                  "Free test points besides the differing points (≤ 50)")
      ->capture_default_str();
  sub->add_flag("--no-continuation", args->no_continuation,
                "gradient: do not grow worst pairs from n = 1 up to n");
  sub->add_flag("--no-sensitivity-search", args->no_sensitivity,
                "gradient: do not search the mean sensitivity ‖μ_D − μ_D'‖ against Δ_n");
  sub->add_option("--threads", args->settings.threads,
                  "Worker threads for the starts (0 = all; results do not depend on it)")
      ->capture_default_str();
  sub->add_option("--seed", args->settings.seed, "Seed of the search")->capture_default_str();
  sub->add_flag("--quiet", args->quiet, "No progress on stderr");
  sub->add_flag("--json", args->json, "Print the report (with witness datasets) as JSON");
  sub->footer(
      "Example (a Δ_n √2 below Lemma B.1 is violated): gpdp audit --kernel exp1d --n 1 --r 1 "
      "--sigma 0.1 --Delta-n 0.70710678 --delta 1e-5");
  sub->callback([args] { run(*args); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
