#include "gpdp/auditor/audit_study_row.hpp"

#include <algorithm>

#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::auditor {

namespace {

double at_order(const AuditReport& report, double alpha) {
  for (const auto& o : report.orders) {
    if (o.alpha == alpha) return o.lower;
  }
  return 0.0;
}

bool above(double found, double proven) { return found > proven * (1 + 1e-9); }

}  // namespace

// The three 2-D rows, a 2-D case where the core matters (long ℓ, small r), Table 4's
// private θ (2-D), and two 1-D settings (the paper's ℓ = r = σ = 1 and a shorter ℓ).
const std::vector<StudySetting>& study_settings() {
  static const std::vector<StudySetting> settings = {
      {2, 0.3, 2.0, 0.5, "issue #19 row 1"},   {2, 0.3, 5.0, 0.5, "issue #19 row 2"},
      {2, 0.1, 6.0, 0.5, "issue #19 row 3"},   {2, 1.0, 0.5, 0.5, "long ℓ, small r"},
      {2, 0.13, 8.22, 0.05, "Table 4 θ_priv"}, {1, 1.0, 1.0, 1.0, "paper 1-D setting"},
      {1, 0.3, 2.0, 0.5, "1-D, short ℓ"}};
  return settings;
}

const std::vector<long>& study_sizes() {
  static const std::vector<long> sizes = {1, 2, 5, 20, 50, 155};
  return sizes;
}

privacy::GpMechanism study_mechanism(const StudySetting& s, long n,
                                     privacy::SensitivityLemma lemma) {
  privacy::GpMechanism m;
  m.kernel = Kernel::exponential(s.ell);
  m.dim = s.dim;
  m.n = n;
  m.r = s.r;
  m.sigma = s.sigma;
  m.lemma = lemma;
  return m;
}

StudyRow study_row(const StudySetting& setting, long n) {
  StudyRow row;
  row.setting = setting;
  row.n = n;
  std::vector<privacy::SensitivityLemma> lemmas = {privacy::SensitivityLemma::B1,
                                                   privacy::SensitivityLemma::B1Sharp};
  if (setting.dim == 1) lemmas.push_back(privacy::SensitivityLemma::B7);
  for (const auto lemma : lemmas) {
    const auto m = study_mechanism(setting, n, lemma);
    const auto bounds = privacy::resolve_bounds(m);
    const auto curve = privacy::rdp_curve(m, bounds);
    StudyLemma l{lemma, privacy::account(m, 1, kStudyDelta, privacy::Conversion::Mironov)};
    l.rdp_proven = curve(l.proven.alpha);
    l.Delta_n = bounds.Delta_n;
    row.lemmas.push_back(l);
  }
  return row;
}

AuditSettings study_gradient_settings(const StudyRow& row) {
  std::vector<double> alphas;
  for (const auto& l : row.lemmas) alphas.push_back(l.proven.alpha);
  std::sort(alphas.begin(), alphas.end());
  alphas.erase(std::unique(alphas.begin(), alphas.end()), alphas.end());
  AuditSettings s;
  s.alphas = alphas;
  s.search = AuditSearch::Gradient;
  s.restarts = row.n <= 50 ? 4 : 2;
  s.max_evals = row.n <= 50 ? 200 : 120;
  s.extra_test_points = 0;
  s.delta = kStudyDelta;
  return s;
}

bool runs_subplex(const StudyRow& row) { return row.n <= 50; }

// The original search with its defaults (12 restarts, 300 evaluations, 2 extra test points).
AuditSettings study_subplex_settings(const StudyRow& row) {
  AuditSettings s;
  s.alphas = {row.lemmas.at(0).proven.alpha};
  s.search = AuditSearch::Subplex;
  s.delta = kStudyDelta;
  return s;
}

bool score_row(StudyRow& row) {
  bool any = false;
  const AuditReport& grad = row.gradient;
  for (auto& l : row.lemmas) {
    l.found = at_order(grad, l.proven.alpha);
    if (l.lemma == privacy::SensitivityLemma::B1 && row.subplex)
      l.found_today = row.subplex->orders.at(0).lower;
    l.violation = above(l.found, l.rdp_proven) || above(grad.sensitivity_lower, l.Delta_n) ||
                  above(grad.epsilon_lower, l.proven.epsilon) ||
                  (row.subplex && above(row.subplex->epsilon_lower, l.proven.epsilon));
    any = any || l.violation;
  }
  return any;
}

}  // namespace gpdp::auditor
