#include "audit_study_report.hpp"

#include <fmt/format.h>

#include "audit_report.hpp"

namespace gpdp::auditor {

namespace {

// "x = x'" or "‖x−x'‖ 0.88", v, μ₋(x) (and μ₋(x')), share of core responses at ±M_Y and near x.
std::string brief(const PairShape& s) {
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

const StudyLemma* find(const StudyRow& row, privacy::SensitivityLemma lemma) {
  for (const auto& l : row.lemmas) {
    if (l.lemma == lemma) return &l;
  }
  return nullptr;
}

// The gradient search's order at B.1's α* (its witness), if it was audited.
const AuditOrder* at_star(const StudyRow& row) {
  const AuditOrder* star = nullptr;
  for (const auto& o : row.gradient.orders) {
    if (o.alpha == row.lemmas.at(0).proven.alpha) star = &o;
  }
  return star;
}

}  // namespace

std::string study_markdown_header() {
  return "| d | ℓ, r, σ | n | α* | B.1 ε_α | found/proven today | new | ε lower today | new | "
         "proven ε B.1 | S.1 | B.7 | Δ_n B.1 | S.1 | B.7 | Δ found | S.1 found/proven | B.7 | "
         "witness at α* (new search) |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
}

std::string study_markdown_line(const StudyRow& row) {
  const StudyLemma& b1 = *find(row, privacy::SensitivityLemma::B1);
  const StudyLemma& sharp = *find(row, privacy::SensitivityLemma::B1Sharp);
  const StudyLemma* b7 = find(row, privacy::SensitivityLemma::B7);
  const AuditReport& grad = row.gradient;
  const AuditReport* today = row.subplex ? &*row.subplex : nullptr;
  const AuditOrder* star = at_star(row);
  const StudySetting& setting = row.setting;
  auto or_dash = [](bool ok, const std::string& text) { return ok ? text : std::string("—"); };
  bool violation = false;
  for (const auto& l : row.lemmas) violation = violation || l.violation;
  return fmt::format(
      "| {} | {:g}, {:g}, {:g} | {} | {:.4g} | {:.4g} | {} | {:.3f} | {} | {:.3g} | {:.3g} | "
      "{:.3g} | {} | {:.4g} | {:.4g} | {} | {:.4g} | {:.3f} | {} | {} |{}\n",
      setting.dim, setting.ell, setting.r, setting.sigma, row.n, b1.proven.alpha, b1.rdp_proven,
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

void append_study_json(const StudyRow& row, nlohmann::json& rows) {
  const AuditReport& grad = row.gradient;
  const AuditOrder* star = at_star(row);
  const StudySetting& setting = row.setting;
  for (const auto& l : row.lemmas) {
    nlohmann::json j = {{"dim", setting.dim},
                        {"ell", setting.ell},
                        {"r", setting.r},
                        {"sigma", setting.sigma},
                        {"setting", setting.why},
                        {"n", row.n},
                        {"delta", kStudyDelta},
                        {"lemma", to_string(l.lemma)},
                        {"alpha_star", l.proven.alpha},
                        {"rdp_proven", l.rdp_proven},
                        {"rdp_found", l.found},
                        {"rdp_found_today", l.found_today},
                        {"epsilon_proven", l.proven.epsilon},
                        {"epsilon_lower", grad.epsilon_lower},
                        {"epsilon_lower_today", row.subplex ? row.subplex->epsilon_lower : -1.0},
                        {"Delta_n", l.Delta_n},
                        {"Delta_found", grad.sensitivity_lower},
                        {"violation", l.violation},
                        {"evaluations", grad.evaluations},
                        {"seconds", row.seconds}};
    if (star) {
      j["witness"] = pair_json(star->witness);
      j["witness_shape"] = star->shape.summary;
      j["witness_start"] = star->start;
    }
    j["sensitivity_witness"] = pair_json(grad.sensitivity_witness);
    j["sensitivity_shape"] = grad.sensitivity_shape.summary;
    rows.push_back(std::move(j));
  }
}

}  // namespace gpdp::auditor
