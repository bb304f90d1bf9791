// gpdp audit-study: the tightness study of docs/privacy.md ("How loose is the bound at realistic
// n?"). A fixed table of settings (exponential kernel on the unit box, d ∈ {1, 2}, n ∈ {1, 2, 5,
// 20, 50, 155}, several (ℓ, r, σ)), each audited by the gradient search at the optimal orders α* of
// every applicable lemma (B.1, Lemma S.1 "b1-sharp", and B.7 in 1-D) and by the original Subplex
// search at B.1's α* (n ≤ 50, its own limit). Prints a markdown table; writes every row with its
// witnesses as JSON. Any found value above any lemma's proven value is a violation (exit 2).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/privacy/audit.hpp"
#include "gpdp/privacy/audit_report.hpp"

namespace gpdp::cli {

namespace {

using privacy::SensitivityLemma;

struct StudyOptions {
  std::string out;   // JSON file with every row and its witnesses ("" = none)
  int threads = 1;   // workers of the gradient search
  long max_n = 155;  // rows with larger n are skipped (a shorter run)
};

// One setting of the table: exponential kernel exp(−‖x−x'‖/ℓ) on [0,1]^d, M_Y = 1, η = 0.
struct Setting {
  int dim;
  double ell, r, sigma;
  const char* why;
};

// The three 2-D rows, a 2-D case where the core matters (long ℓ, small r), Table 4's
// private θ (2-D), and two 1-D settings (the paper's ℓ = r = σ = 1 and a shorter ℓ).
const std::vector<Setting> kSettings = {
    {2, 0.3, 2.0, 0.5, "issue #19 row 1"},   {2, 0.3, 5.0, 0.5, "issue #19 row 2"},
    {2, 0.1, 6.0, 0.5, "issue #19 row 3"},   {2, 1.0, 0.5, 0.5, "long ℓ, small r"},
    {2, 0.13, 8.22, 0.05, "Table 4 θ_priv"}, {1, 1.0, 1.0, 1.0, "paper 1-D setting"},
    {1, 0.3, 2.0, 0.5, "1-D, short ℓ"}};
const std::vector<long> kSizes = {1, 2, 5, 20, 50, 155};
constexpr double kDelta = 0.004;

struct LemmaRow {
  SensitivityLemma lemma;
  privacy::Guarantee proven;  // ε(δ) and α*
  double rdp_proven = 0;      // ε_α at α*
  double Delta_n = 0;
  double found = 0;         // gradient search at α*
  double found_today = -1;  // Subplex at α* (B.1 only; −1 = not run)
  bool violation = false;
};

privacy::GpMechanism mechanism(const Setting& s, long n, SensitivityLemma lemma) {
  privacy::GpMechanism m;
  m.kernel = Kernel::exponential(s.ell);
  m.dim = s.dim;
  m.n = n;
  m.r = s.r;
  m.sigma = s.sigma;
  m.lemma = lemma;
  return m;
}

double at_order(const privacy::AuditReport& rep, double alpha) {
  for (const auto& o : rep.orders) {
    if (o.alpha == alpha) return o.lower;
  }
  return 0.0;
}

// The study's search effort: the gradient search's defaults up to n = 50, fewer starts and steps
// beyond (each evaluation costs O(n³)); no extra test points (η = 0: they cannot matter).
privacy::AuditSettings gradient_settings(long n, const std::vector<double>& alphas, int threads) {
  privacy::AuditSettings s;
  s.alphas = alphas;
  s.search = privacy::AuditSearch::Gradient;
  s.restarts = n <= 50 ? 4 : 2;
  s.max_evals = n <= 50 ? 200 : 120;
  s.extra_test_points = 0;
  s.threads = threads;
  s.delta = kDelta;
  return s;
}

// The original search with its defaults (12 restarts, 300 evaluations, 2 extra test points).
privacy::AuditSettings subplex_settings(double alpha) {
  privacy::AuditSettings s;
  s.alphas = {alpha};
  s.search = privacy::AuditSearch::Subplex;
  s.delta = kDelta;
  return s;
}

// "x = x'" or "‖x−x'‖ 0.88", v, μ₋(x) (and μ₋(x')), share of core responses at ±M_Y and near x.
std::string brief(const privacy::PairShape& s) {
  const std::string where =
      s.distance_x_xp == 0 ? std::string("x = x'") : fmt::format("‖x−x'‖ {:.2g}", s.distance_x_xp);
  std::string out = fmt::format("{}, v {:.2g}, μ₋(x) {:+.2g}", where, s.v, s.core_mean_x);
  if (s.distance_x_xp > 0) out += fmt::format(", μ₋(x') {:+.2g}", s.core_mean_xp);
  if (s.n > 1) {
    out += fmt::format(", core at ±M {:.0f}%, near x {:.0f}%", 100 * s.core_at_bound,
                       100 * s.core_near_x);
  }
  return out;
}

// One line of the table for (setting, n): B.1's α* and ratios, every lemma's ε and Δ_n.
void print_row(const Setting& setting, long n, const std::vector<LemmaRow>& lemmas,
               const privacy::AuditReport& grad, const privacy::AuditReport* today,
               const privacy::AuditOrder* star) {
  auto find = [&](SensitivityLemma l) -> const LemmaRow* {
    for (const auto& row : lemmas) {
      if (row.lemma == l) return &row;
    }
    return nullptr;
  };
  const LemmaRow& b1 = *find(SensitivityLemma::B1);
  const LemmaRow& sharp = *find(SensitivityLemma::B1Sharp);
  const LemmaRow* b7 = find(SensitivityLemma::B7);
  auto or_dash = [](bool ok, const std::string& text) { return ok ? text : std::string("—"); };
  bool violation = false;
  for (const auto& row : lemmas) violation = violation || row.violation;
  fmt::print(
      "| {} | {:g}, {:g}, {:g} | {} | {:.4g} | {:.4g} | {} | {:.3f} | {} | {:.3g} | {:.3g} | "
      "{:.3g} | {} | {:.4g} | {:.4g} | {} | {:.4g} | {:.3f} | {} | {} |{}\n",
      setting.dim, setting.ell, setting.r, setting.sigma, n, b1.proven.alpha, b1.rdp_proven,
      or_dash(today != nullptr, fmt::format("{:.3f}", b1.found_today / b1.rdp_proven)),
      b1.found / b1.rdp_proven,
      or_dash(today != nullptr, fmt::format("{:.3g}", today ? today->epsilon_lower : 0.0)),
      grad.epsilon_lower, b1.proven.epsilon, sharp.proven.epsilon,
      or_dash(b7 != nullptr, fmt::format("{:.3g}", b7 ? b7->proven.epsilon : 0.0)), b1.Delta_n,
      sharp.Delta_n, or_dash(b7 != nullptr, fmt::format("{:.4g}", b7 ? b7->Delta_n : 0.0)),
      grad.sensitivity_lower, sharp.found / sharp.rdp_proven,
      or_dash(b7 != nullptr, fmt::format("{:.3f}", b7 ? b7->found / b7->rdp_proven : 0.0)),
      star ? brief(star->shape) : "", violation ? " **VIOLATION**" : "");
}

// Returns true when some row violates some lemma.
bool run_study(const StudyOptions& options) {
  nlohmann::json rows = nlohmann::json::array();
  bool any_violation = false;
  fmt::print(
      "| d | ℓ, r, σ | n | α* | B.1 ε_α | found/proven today | new | ε lower today | new | "
      "proven ε B.1 | S.1 | B.7 | Δ_n B.1 | S.1 | B.7 | Δ found | S.1 found/proven | B.7 | "
      "witness at α* (new search) |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& setting : kSettings) {
    for (const long n : kSizes) {
      if (n > options.max_n) continue;
      const auto start = std::chrono::steady_clock::now();
      std::vector<SensitivityLemma> lemmas = {SensitivityLemma::B1, SensitivityLemma::B1Sharp};
      if (setting.dim == 1) lemmas.push_back(SensitivityLemma::B7);
      std::vector<LemmaRow> rows_here;
      std::vector<double> alphas;
      for (const auto lemma : lemmas) {
        const auto m = mechanism(setting, n, lemma);
        const auto bounds = privacy::resolve_bounds(m);
        const auto curve = privacy::rdp_curve(m, bounds);
        LemmaRow row{lemma, privacy::account(m, 1, kDelta, privacy::Conversion::Mironov)};
        row.rdp_proven = curve(row.proven.alpha);
        row.Delta_n = bounds.Delta_n;
        alphas.push_back(row.proven.alpha);
        rows_here.push_back(row);
      }
      std::sort(alphas.begin(), alphas.end());
      alphas.erase(std::unique(alphas.begin(), alphas.end()), alphas.end());
      const auto base = mechanism(setting, n, SensitivityLemma::B1);
      const auto grad = privacy::audit(base, gradient_settings(n, alphas, options.threads));
      privacy::AuditReport today;
      const bool ran_today = n <= 50;
      if (ran_today) today = privacy::audit(base, subplex_settings(rows_here[0].proven.alpha));
      const privacy::AuditOrder* star = nullptr;
      for (const auto& o : grad.orders) {
        if (o.alpha == rows_here[0].proven.alpha) star = &o;
      }
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      for (auto& row : rows_here) {
        row.found = at_order(grad, row.proven.alpha);
        if (row.lemma == SensitivityLemma::B1 && ran_today) row.found_today = today.orders[0].lower;
        row.violation = row.found > row.rdp_proven * (1 + 1e-9) ||
                        grad.sensitivity_lower > row.Delta_n * (1 + 1e-9) ||
                        grad.epsilon_lower > row.proven.epsilon * (1 + 1e-9) ||
                        (ran_today && today.epsilon_lower > row.proven.epsilon * (1 + 1e-9));
        any_violation = any_violation || row.violation;
        nlohmann::json j = {{"dim", setting.dim},
                            {"ell", setting.ell},
                            {"r", setting.r},
                            {"sigma", setting.sigma},
                            {"setting", setting.why},
                            {"n", n},
                            {"delta", kDelta},
                            {"lemma", privacy::to_string(row.lemma)},
                            {"alpha_star", row.proven.alpha},
                            {"rdp_proven", row.rdp_proven},
                            {"rdp_found", row.found},
                            {"rdp_found_today", row.found_today},
                            {"epsilon_proven", row.proven.epsilon},
                            {"epsilon_lower", grad.epsilon_lower},
                            {"epsilon_lower_today", ran_today ? today.epsilon_lower : -1.0},
                            {"Delta_n", row.Delta_n},
                            {"Delta_found", grad.sensitivity_lower},
                            {"violation", row.violation},
                            {"evaluations", grad.evaluations},
                            {"seconds", seconds}};
        if (star) {
          j["witness"] = privacy::pair_json(star->witness);
          j["witness_shape"] = star->shape.summary;
          j["witness_start"] = star->start;
        }
        j["sensitivity_witness"] = privacy::pair_json(grad.sensitivity_witness);
        j["sensitivity_shape"] = grad.sensitivity_shape.summary;
        rows.push_back(j);
      }
      print_row(setting, n, rows_here, grad, ran_today ? &today : nullptr, star);
      fmt::print(stderr, "study: d = {}, ℓ = {}, r = {}, σ = {}, n = {}: {:.1f} s\n", setting.dim,
                 setting.ell, setting.r, setting.sigma, n, seconds);
    }
  }
  if (!options.out.empty()) {
    io::write_file_atomic(
        options.out,
        nlohmann::json{{"delta", kDelta}, {"conversion", "mironov"}, {"rows", rows}}.dump(1) +
            "\n");
  }
  return any_violation;
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "audit-study",
      "The tightness study of docs/privacy.md: 'gpdp audit' (gradient and original Subplex\n"
      "searches) over a fixed table of settings (exponential kernel, d = 1, 2; n = 1 ... 155;\n"
      "lemmas B.1, b1-sharp, B.7), as a markdown table; exits 2 if any row violates any lemma.\n"
      "About 3 CPU minutes (5–12 min wall on a shared 2-core machine); run it with nice.");
  auto opts = std::make_shared<StudyOptions>();
  sub->add_option("--out", opts->out, "JSON file for every row with its witness datasets");
  sub->add_option("--threads", opts->threads, "Worker threads of the gradient search")
      ->capture_default_str();
  sub->add_option("--max-n", opts->max_n, "Skip the rows with larger n (a shorter run)")
      ->capture_default_str();
  sub->callback([opts] {
    require(opts->threads >= 0, "--threads must be ≥ 0");
    if (run_study(*opts)) {
      throw PrivacyError("VIOLATION: a row of the study exceeds a proven bound (marked above)");
    }
  });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
