// gpdp account: (ε, δ) of L released posterior sample paths (docs/mathematics.md §2).
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/privacy/json.hpp"
#include "gpdp/privacy/risk.hpp"
#include "privacy_options.hpp"

namespace gpdp::cli {

namespace {

struct AccountArgs {
  KernelOptions kernel;
  HyperOptions hyper;
  MechanismOptions mech;
  AccountingOptions acc;
  bool json = false;
};

void run(const AccountArgs& a) {
  const auto mech = to_mechanism(a.mech, a.kernel, a.hyper);
  const auto conv = to_conversion(a.acc);
  const auto b = privacy::resolve_bounds(mech);
  const auto g = privacy::account(mech, a.acc.draws, a.acc.delta, conv);
  privacy::Accountant composition;
  composition.add(mech, a.acc.draws);
  const auto risk = privacy::attack_risk(composition, g);
  if (!g.note().empty()) fmt::print(stderr, "gpdp: note: {}\n", g.note());
  if (a.json) {
    nlohmann::json j = privacy::brief_json(g);
    j["Vn"] = b.Vn;
    j["Delta_n"] = b.Delta_n;
    j["kappa"] = b.kappa;
    j["tau"] = b.tau;
    j["sensitivity_lemma"] = privacy::to_string(mech.lemma);
    j["draws"] = a.acc.draws;
    j["mechanism"] = privacy::to_string(mech.kind);
    j["risk"] = privacy::to_json(risk);
    j["risk"]["summary"] = privacy::risk_sentence(risk);
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("epsilon  {:.10g}   for delta = {:g}, L = {} draw(s)\n", g.epsilon, g.delta,
             a.acc.draws);
  fmt::print("alpha*   {:.10g}   (admissible orders: 1 < alpha < {:.10g}){}\n", g.alpha,
             g.alpha_max, g.pinned_low || g.pinned_high ? "  [pinned at an edge]" : "");
  fmt::print("rdp      {:.10g}   (L·ε_α at alpha*)\n", g.rdp);
  fmt::print("Vn       {:.10g}   ({})\n", b.Vn, b.Vn_source);
  fmt::print("Delta_n  {:.10g}   ({})\n", b.Delta_n, b.Delta_source);
  fmt::print("kappa    {:.10g}\n", b.kappa);
  fmt::print("tau      {:.10g}   (τ̃ of Proposition 2; V_n/r² when η = 0)\n", b.tau);
  fmt::print("bound    {}; kernel {}, n = {}, {}, M_Y = {}\n", b.theorem, mech.kernel->name(),
             mech.n, mechanism_parameters(mech), mech.M_Y);
  fmt::print("conversion {}: {}\n", privacy::to_string(conv), privacy::conversion_citation(conv));
  fmt::print("risk     {}; TPR ≤ {:.4g} at FPR 0.001, ≤ {:.4g} at FPR 0.1\n",
             privacy::risk_sentence(risk), risk.points[0].tpr, risk.points[2].tpr);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "account",
      "Privacy guarantee (ε at a given δ) of releasing L exact GP posterior sample paths.\n"
      "Rényi-DP by Theorem 3.1 (η = 0) / Proposition 2 (η > 0) of the paper, V_n by Proposition 3\n"
      "(or --Vn), Δ_n by the chosen lemma (or --Delta-n), composed over L draws and converted to\n"
      "(ε, δ) with the optimal Rényi order. --sigma inf gives the covariance-only bound.");
  auto args = std::make_shared<AccountArgs>();
  add_kernel_options(sub, args->kernel);
  add_hyper_options(sub, args->hyper);
  add_mechanism_options(sub, args->mech);
  add_accounting_options(sub, args->acc);
  sub->add_flag("--json", args->json,
                "Print JSON: epsilon, delta, alpha, rdp, Vn, Delta_n, kappa, tau, conversion, "
                "sensitivity_lemma, draws, risk (membership-attack TPR bounds at FPR 0.001, "
                "0.01, 0.1)");
  sub->footer(
      "Example: gpdp account --kernel exp1d --ell 1 --n 100 --r 1 --sigma 1 --sensitivity b7 "
      "--draws 1 --delta 0.005");
  sub->callback([args] { run(*args); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
