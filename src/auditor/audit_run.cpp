#include "gpdp/auditor/audit_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "audit_report.hpp"
#include "gpdp/error.hpp"
#include "options/model_options.hpp"

namespace gpdp::auditor {

AuditRequest::AuditRequest() {
  settings.conversion = privacy::Conversion::CKS;
  settings.delta = std::numeric_limits<double>::quiet_NaN();
}

std::vector<options::OptionSpec> audit_options() {
  using options::option;
  using options::OptionScope;
  using options::OptionType;
  const AuditRequest d;
  const auto& s = d.settings;
  const std::vector<options::OptionSpec> own{
      option("--alpha", OptionType::RealList, nullptr,
             "Rényi orders to audit (default: spread over the admissible range and α*)"),
      option("--search", OptionType::Text, to_string(s.search),
             "gradient (projected gradient ascent from structured, random and continuation "
             "starts) or subplex (the original derivative-free random-restart search)"),
      option("--restarts", OptionType::Integer, s.restarts,
             "Random restarts per order and search mode (gradient: besides the structured and "
             "continuation starts)"),
      option("--evals", OptionType::Integer, s.max_evals,
             "Objective (gradient: gradient) evaluations per local search")
          .with_parameter("max_evals"),
      option("--test-points", OptionType::Integer, s.extra_test_points,
             "Free test points besides the differing points (≤ 50)")
          .with_parameter("extra_test_points"),
      option("--no-continuation", OptionType::Flag, !s.continuation,
             "gradient: do not grow worst pairs from n = 1 up to n"),
      option("--no-sensitivity-search", OptionType::Flag, !s.sensitivity,
             "gradient: do not search the mean sensitivity ‖μ_D − μ_D'‖ against Δ_n"),
      option("--threads", OptionType::Integer, s.threads,
             "Worker threads for the starts (0 = all; results do not depend on it)")
          .in_scope(OptionScope::Cli),
      option("--seed", OptionType::Integer, s.seed, "Seed of the search"),
      option("--quiet", OptionType::Flag, false, "No progress on stderr")
          .in_scope(OptionScope::FrontEnd),
      option("--json", OptionType::Flag, d.json,
             "Print the report (with witness datasets) as JSON"),
  };
  const auto& m = d.mechanism;
  auto specs = options::concat(options::kernel_options(m.kernel, m.ell),
                               options::hyper_options(m.r, m.sigma, m.eta));
  specs = options::concat(specs, options::mechanism_options(options::MechanismFlagSet::Full));
  specs = options::concat(specs, options::accounting_options(s.draws, to_string(s.conversion)));
  return options::concat(specs, own);
}

AuditRequest audit_request_from_json(const nlohmann::json& j) {
  options::check_request_keys(audit_options(), j, "audit");
  AuditRequest a;
  options::read_mechanism_flags(j, a.mechanism);
  auto& s = a.settings;
  s.draws = j.value("draws", s.draws);
  s.delta = options::real_or(j, "delta", s.delta);
  if (j.contains("conversion"))
    s.conversion = privacy::parse_conversion(j.at("conversion").get<std::string>());
  s.alphas = j.value("alpha", s.alphas);
  if (j.contains("search")) s.search = parse_audit_search(j.at("search").get<std::string>());
  s.restarts = j.value("restarts", s.restarts);
  s.max_evals = j.value("evals", s.max_evals);
  s.extra_test_points = j.value("test-points", s.extra_test_points);
  s.continuation = !j.value("no-continuation", !s.continuation);
  s.sensitivity = !j.value("no-sensitivity-search", !s.sensitivity);
  s.seed = j.value("seed", s.seed);
  a.json = j.value("json", a.json);
  return a;
}

AuditRun run_audit(const AuditRequest& request, tasks::Executor& executor,
                   const std::function<void(const std::string&)>& progress) {
  const auto& s = request.settings;
  const auto mech = options::to_mechanism(request.mechanism);
  require_parameter(s.draws >= 1, "draws", fmt::format("draws must be ≥ 1, got {}", s.draws));
  require_parameter(s.delta > 0 && s.delta < 1, "delta",
                    fmt::format("delta must lie in (0, 1), got {}", s.delta));
  const auto report = audit(mech, s, progress, &executor);
  const auto b = privacy::resolve_bounds(mech);
  return {request.json ? audit_report_json(report, mech, b).dump(2) + "\n"
                       : audit_report_text(report, mech, b),
          report.violation};
}

std::string audit_report_text(const AuditReport& report, const privacy::GpMechanism& mech,
                              const privacy::ResolvedBounds& b) {
  std::string out = fmt::format(
      "audit of {} draw(s): kernel {}, n = {}, {}, M_Y = {}, Delta_n = {:.6g} ({}), Vn = "
      "{:.6g}\n",
      report.draws, mech.kernel->name(), mech.n, options::mechanism_parameters(mech), mech.M_Y,
      b.Delta_n, to_string(mech.lemma), b.Vn);
  out += fmt::format("{:>12} {:>16} {:>16} {:>8}\n", "alpha", "RDP proven", "RDP found",
                     "found/proven");
  const auto L = static_cast<double>(report.draws);
  for (const auto& o : report.orders) {
    out += fmt::format("{:>12.6g} {:>16.8g} {:>16.8g} {:>8.4f}{}\n", o.alpha, L * o.proven,
                       L * o.lower, o.proven > 0 ? o.lower / o.proven : 0.0,
                       o.violation ? "  VIOLATION" : "");
  }
  out += fmt::format(
      "(eps, delta = {:g}): proven eps = {:.8g} ({}), lower bound eps = {:.8g} "
      "(exact Gaussian mechanism of the best {} pair, distance {:.6g})\n",
      report.proven.delta, report.proven.epsilon, to_string(report.proven.conversion),
      report.epsilon_lower,
      mech.kind == privacy::MechanismKind::Functional ? "neighbouring" : "same-covariate",
      report.mean_distance);
  if (report.sensitivity_searched) {
    out += fmt::format(
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
    out +=
        fmt::format("witness at alpha = {:.6g}{}: {}\n", star->alpha,
                    star->start.empty() ? "" : " (from: " + star->start + ")", star->shape.summary);
  }
  out += fmt::format("search: {}, {} evaluations, {} numerically singular candidates skipped, {}\n",
                     to_string(report.search), report.evaluations, report.singular_skipped,
                     report.rng);
  return out;
}

}  // namespace gpdp::auditor
