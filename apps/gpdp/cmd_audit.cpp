// gpdp audit: an empirical lower bound on the privacy loss, beside the proven upper bound.
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/privacy/audit.hpp"
#include "privacy_options.hpp"

namespace gpdp::cli {

namespace {

struct AuditArgs {
  KernelOptions kernel;
  HyperOptions hyper;
  MechanismOptions mech;
  AccountingOptions acc;
  privacy::AuditSettings settings;
  bool json = false;
  bool quiet = false;
};

nlohmann::json matrix_json(const Eigen::MatrixXd& M) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < M.cols(); ++j) row.push_back(M(i, j));
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json pair_json(const privacy::NeighbourPair& p) {
  return {{"X", matrix_json(p.X)},
          {"y", matrix_json(p.y)},
          {"X_prime", matrix_json(p.Xp)},
          {"y_prime", matrix_json(p.yp)},
          {"test", matrix_json(p.test)}};
}

void run(AuditArgs& a) {
  const auto mech = to_mechanism(a.mech, a.kernel, a.hyper);
  a.settings.conversion = to_conversion(a.acc);
  a.settings.delta = a.acc.delta;
  a.settings.draws = a.acc.draws;
  auto progress = [&](const std::string& msg) {
    if (!a.quiet) fmt::print(stderr, "{}\n", msg);
  };
  const auto report = privacy::audit(mech, a.settings, progress);
  const auto b = privacy::resolve_bounds(mech);
  if (a.json) {
    nlohmann::json j;
    j["violation"] = report.violation;
    j["draws"] = report.draws;
    j["delta"] = report.proven.delta;
    j["conversion"] = privacy::to_string(report.proven.conversion);
    j["epsilon_proven"] = report.proven.epsilon;
    j["epsilon_lower"] = report.epsilon_lower;
    j["mean_distance"] = report.mean_distance;
    j["Vn"] = b.Vn;
    j["Delta_n"] = b.Delta_n;
    j["sensitivity_lemma"] = privacy::to_string(mech.lemma);
    j["mechanism"] = privacy::to_string(mech.kind);
    j["rng"] = report.rng;
    j["evaluations"] = report.evaluations;
    j["singular_skipped"] = report.singular_skipped;
    nlohmann::json orders = nlohmann::json::array();
    for (const auto& o : report.orders) {
      orders.push_back({{"alpha", o.alpha},
                        {"rdp_proven", o.proven * static_cast<double>(report.draws)},
                        {"rdp_lower", o.lower * static_cast<double>(report.draws)},
                        {"violation", o.violation},
                        {"witness", pair_json(o.witness)}});
    }
    j["orders"] = orders;
    fmt::print("{}\n", j.dump(2));
  } else {
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
    fmt::print("search: {} evaluations, {} numerically singular candidates skipped, {}\n",
               report.evaluations, report.singular_skipped, report.rng);
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
  sub->add_option("--restarts", args->settings.restarts,
                  "Random restarts per order and search mode")
      ->capture_default_str();
  sub->add_option("--evals", args->settings.max_evals, "Objective evaluations per local search")
      ->capture_default_str();
  sub->add_option("--test-points", args->settings.extra_test_points,
                  "Test points besides the differing points")
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
