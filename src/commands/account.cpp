// gpdp account: (ε, δ) of L released posterior sample paths (docs/mathematics.md §2), as one
// declared request (account.hpp).
#include "gpdp/commands/account.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "gpdp/privacy/json.hpp"
#include "gpdp/privacy/risk.hpp"
#include "options/model_options.hpp"

namespace gpdp::commands {

namespace {
using nlohmann::json;
using options::option;
using options::OptionType;
}  // namespace

std::vector<options::OptionSpec> account_options() {
  const options::MechanismFlags d;
  const options::Accounting a;
  auto specs = options::concat(options::kernel_options(d.kernel, d.ell),
                               options::hyper_options(d.r, d.sigma, d.eta));
  specs = options::concat(specs, options::mechanism_options(options::MechanismFlagSet::Full));
  specs = options::concat(specs,
                          options::accounting_options(a.draws, privacy::to_string(a.conversion)));
  specs.push_back(option("--json", OptionType::Flag, false,
                         "Print JSON: epsilon, delta, alpha, rdp, Vn, Delta_n, kappa, tau, "
                         "conversion, sensitivity_lemma, draws, risk (membership-attack TPR "
                         "bounds at FPR 0.001, 0.01, 0.1)")
                      .in_scope(options::OptionScope::Cli));
  return specs;
}

AccountCommand account_request_from_json(const json& request) {
  options::check_request_keys(account_options(), request, "account");
  AccountCommand c;
  options::MechanismFlags flags;
  options::read_mechanism_flags(request, flags);
  c.mechanism = options::to_mechanism(flags);
  c.accounting = options::read_accounting(request);
  return c;
}

namespace {

json report_json(const AccountCommand& c, const privacy::Guarantee& g,
                 const privacy::ResolvedBounds& b, const privacy::AttackRisk& risk) {
  json j = privacy::brief_json(g);
  j["Vn"] = b.Vn;
  j["Delta_n"] = b.Delta_n;
  j["kappa"] = b.kappa;
  j["tau"] = b.tau;
  j["sensitivity_lemma"] = privacy::to_string(c.mechanism.lemma);
  j["draws"] = c.accounting.draws;
  j["mechanism"] = privacy::to_string(c.mechanism.kind);
  j["risk"] = privacy::to_json(risk);
  j["risk"]["summary"] = privacy::risk_sentence(risk);
  return j;
}

std::string report_text(const AccountCommand& c, const privacy::Guarantee& g,
                        const privacy::ResolvedBounds& b, const privacy::AttackRisk& risk) {
  const privacy::GpMechanism& m = c.mechanism;
  std::string out = fmt::format("epsilon  {:.10g}   for delta = {:g}, L = {} draw(s)\n", g.epsilon,
                                g.delta, c.accounting.draws);
  out += fmt::format("alpha*   {:.10g}   (admissible orders: 1 < alpha < {:.10g}){}\n", g.alpha,
                     g.alpha_max, g.pinned_low || g.pinned_high ? "  [pinned at an edge]" : "");
  out += fmt::format("rdp      {:.10g}   (L·ε_α at alpha*)\n", g.rdp);
  out += fmt::format("Vn       {:.10g}   ({})\n", b.Vn, b.Vn_source);
  out += fmt::format("Delta_n  {:.10g}   ({})\n", b.Delta_n, b.Delta_source);
  out += fmt::format("kappa    {:.10g}\n", b.kappa);
  out += fmt::format("tau      {:.10g}   (τ̃ of Proposition 2; V_n/r² when η = 0)\n", b.tau);
  out += fmt::format("bound    {}; kernel {}, n = {}, {}, M_Y = {}\n", b.theorem, m.kernel->name(),
                     m.n, options::mechanism_parameters(m), m.M_Y);
  const privacy::Conversion conv = c.accounting.conversion;
  out += fmt::format("conversion {}: {}\n", privacy::to_string(conv),
                     privacy::conversion_citation(conv));
  out += fmt::format("risk     {}; TPR ≤ {:.4g} at FPR 0.001, ≤ {:.4g} at FPR 0.1\n",
                     privacy::risk_sentence(risk), risk.points[0].tpr, risk.points[2].tpr);
  return out;
}

}  // namespace

AccountOutcome run_account_command(const AccountCommand& c) {
  const privacy::ResolvedBounds b = privacy::resolve_bounds(c.mechanism);
  const options::Accounting& a = c.accounting;
  const privacy::Guarantee g = privacy::account(c.mechanism, a.draws, a.delta, a.conversion);
  privacy::Accountant composition;
  composition.add(c.mechanism, a.draws);
  const privacy::AttackRisk risk = privacy::attack_risk(composition, g);
  return {report_json(c, g, b, risk), report_text(c, g, b, risk), g.note()};
}

}  // namespace gpdp::commands
