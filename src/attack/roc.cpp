#include "gpdp/attack/roc.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <cmath>
#include <functional>

#include "gpdp/error.hpp"
#include "gpdp/privacy/risk.hpp"

namespace gpdp::attack {

namespace {
void require_scores(const std::vector<double>& in, const std::vector<double>& out,
                    const char* where) {
  require(!in.empty() && !out.empty(),
          fmt::format("{}: needs non-empty in and out score sets ({} in, {} out)", where, in.size(),
                      out.size()));
  for (const auto* v : {&in, &out}) {
    for (double x : *v) {
      if (std::isnan(x)) throw InputError(fmt::format("{}: a score is NaN", where));
    }
  }
}

// Number of elements of the ascending `sorted` that are ≥ t.
long count_at_least(const std::vector<double>& sorted, double t) {
  return static_cast<long>(sorted.end() - std::lower_bound(sorted.begin(), sorted.end(), t));
}

std::vector<double> sorted_copy(const std::vector<double>& v) {
  std::vector<double> s = v;
  std::sort(s.begin(), s.end());
  return s;
}

// max{log((tpr − δ)/fpr), log((1 − fpr − δ)/(1 − tpr))}, −∞ where neither is defined.
double epsilon_from_rates(double tpr, double fpr, double delta) {
  double best = -INFINITY;
  if (tpr - delta > 0 && fpr > 0) best = std::max(best, std::log((tpr - delta) / fpr));
  if (1 - fpr - delta > 0 && 1 - tpr > 0)
    best = std::max(best, std::log((1 - fpr - delta) / (1 - tpr)));
  return best;
}

// The same with Clopper–Pearson bounds (counts k_in of n_in, k_out of n_out declared "member").
double epsilon_lower_from_counts(long k_in, long n_in, long k_out, long n_out, double delta,
                                 double a) {
  const double tpr_lo = clopper_pearson_lower(k_in, n_in, a);
  const double fpr_hi = clopper_pearson_upper(k_out, n_out, a);
  double best = -INFINITY;
  if (tpr_lo - delta > 0) best = std::max(best, std::log((tpr_lo - delta) / fpr_hi));
  if (1 - fpr_hi - delta > 0) best = std::max(best, std::log((1 - fpr_hi - delta) / (1 - tpr_lo)));
  return best;
}
}  // namespace

std::vector<RocPoint> roc_curve(const std::vector<double>& in_scores,
                                const std::vector<double>& out_scores) {
  require_scores(in_scores, out_scores, "roc_curve");
  std::vector<double> thresholds = in_scores;
  thresholds.insert(thresholds.end(), out_scores.begin(), out_scores.end());
  std::sort(thresholds.begin(), thresholds.end(), std::greater<>());
  thresholds.erase(std::unique(thresholds.begin(), thresholds.end()), thresholds.end());
  const auto in = sorted_copy(in_scores), out = sorted_copy(out_scores);
  const auto n_in = static_cast<double>(in.size()), n_out = static_cast<double>(out.size());
  std::vector<RocPoint> roc{{0.0, 0.0}};
  for (double t : thresholds) {
    roc.push_back({static_cast<double>(count_at_least(out, t)) / n_out,
                   static_cast<double>(count_at_least(in, t)) / n_in});
  }
  if (roc.back().fpr < 1.0 || roc.back().tpr < 1.0) roc.push_back({1.0, 1.0});
  return roc;
}

std::vector<RocPoint> thin_roc(const std::vector<RocPoint>& roc, int points) {
  if (static_cast<int>(roc.size()) <= points || points < 3) return roc;
  std::vector<RocPoint> thin{roc.front()};
  double min_fpr = 1.0;
  for (const auto& p : roc) {
    if (p.fpr > 0) min_fpr = std::min(min_fpr, p.fpr);
  }
  const double step = -std::log(min_fpr) / (points - 2);
  std::size_t i = 0;
  for (int k = points - 2; k >= 0; --k) {
    const double target = std::exp(-step * k);
    // the last point with fpr ≤ target (the best TPR reachable at that FPR)
    while (i + 1 < roc.size() && roc[i + 1].fpr <= target) ++i;
    if (thin.back().fpr != roc[i].fpr || thin.back().tpr != roc[i].tpr) thin.push_back(roc[i]);
  }
  if (thin.back().fpr < 1.0 || thin.back().tpr < 1.0) thin.push_back(roc.back());
  return thin;
}

double auc(const std::vector<double>& in_scores, const std::vector<double>& out_scores) {
  require_scores(in_scores, out_scores, "auc");
  const auto out = sorted_copy(out_scores);
  double total = 0.0;
  for (double s : in_scores) {
    const auto lo = std::lower_bound(out.begin(), out.end(), s);
    const auto hi = std::upper_bound(lo, out.end(), s);
    total += static_cast<double>(lo - out.begin()) + 0.5 * static_cast<double>(hi - lo);
  }
  return total / (static_cast<double>(in_scores.size()) * static_cast<double>(out.size()));
}

double tpr_at_fpr(const std::vector<double>& in_scores, const std::vector<double>& out_scores,
                  double alpha) {
  require_scores(in_scores, out_scores, "tpr_at_fpr");
  require(alpha >= 0.0 && alpha <= 1.0, fmt::format("tpr_at_fpr: α = {} is not in [0, 1]", alpha));
  const auto n_out = static_cast<long>(out_scores.size());
  const auto k = static_cast<long>(std::floor(alpha * static_cast<double>(n_out) + 1e-9));
  if (k >= n_out) return 1.0;
  auto out = out_scores;
  // the (k+1)-th largest out score
  std::nth_element(out.begin(), out.begin() + k, out.end(), std::greater<>());
  const double threshold = out[static_cast<std::size_t>(k)];
  const auto above = std::count_if(in_scores.begin(), in_scores.end(),
                                   [threshold](double s) { return s > threshold; });
  return static_cast<double>(above) / static_cast<double>(in_scores.size());
}

double clopper_pearson_lower(long k, long n, double a) {
  require(n > 0 && k >= 0 && k <= n && a > 0 && a < 1,
          fmt::format("clopper_pearson_lower: invalid k = {}, n = {}, a = {}", k, n, a));
  if (k == 0) return 0.0;
  return boost::math::ibeta_inv(static_cast<double>(k), static_cast<double>(n - k + 1), a);
}

double clopper_pearson_upper(long k, long n, double a) {
  require(n > 0 && k >= 0 && k <= n && a > 0 && a < 1,
          fmt::format("clopper_pearson_upper: invalid k = {}, n = {}, a = {}", k, n, a));
  if (k == n) return 1.0;
  return boost::math::ibeta_inv(static_cast<double>(k + 1), static_cast<double>(n - k), 1.0 - a);
}

double dp_max_tpr(double fpr, double epsilon, double delta) {
  return privacy::tpr_bound_epsilon_delta(fpr, epsilon, delta);
}

EmpiricalEpsilon empirical_epsilon(const std::vector<double>& shadow_in,
                                   const std::vector<double>& shadow_out,
                                   const std::vector<double>& eval_in,
                                   const std::vector<double>& eval_out, double delta,
                                   double confidence) {
  require_scores(shadow_in, shadow_out, "empirical_epsilon (shadow)");
  require_scores(eval_in, eval_out, "empirical_epsilon (evaluation)");
  require(delta >= 0 && delta < 1 && confidence > 0 && confidence < 1,
          "empirical_epsilon: need 0 ≤ δ < 1 and 0 < confidence < 1");
  const double a = (1.0 - confidence) / 2.0;
  const auto s_in = sorted_copy(shadow_in), s_out = sorted_copy(shadow_out);
  const auto e_in = sorted_copy(eval_in), e_out = sorted_copy(eval_out);
  // Candidate thresholds: every shadow score, or 2000 quantiles of them when there are more.
  std::vector<double> all = s_in;
  all.insert(all.end(), s_out.begin(), s_out.end());
  std::sort(all.begin(), all.end());
  std::vector<double> candidates;
  const std::size_t grid = std::min<std::size_t>(2000, all.size());
  for (std::size_t i = 0; i < grid; ++i) {
    candidates.push_back(all[grid > 1 ? i * (all.size() - 1) / (grid - 1) : 0]);
  }
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());

  EmpiricalEpsilon result;
  result.confidence = confidence;
  double best = -INFINITY;
  result.threshold = candidates.front();
  for (double t : candidates) {
    const double v = epsilon_lower_from_counts(
        count_at_least(s_in, t), static_cast<long>(s_in.size()), count_at_least(s_out, t),
        static_cast<long>(s_out.size()), delta, a);
    if (v > best) {
      best = v;
      result.threshold = t;
    }
  }
  const long k_in = count_at_least(e_in, result.threshold);
  const long k_out = count_at_least(e_out, result.threshold);
  const auto n_in = static_cast<long>(e_in.size()), n_out = static_cast<long>(e_out.size());
  // Rates with a half-count continuity correction, so that an empty cell (FPR = 0) stays finite.
  auto rate = [](long k, long n) {
    return (static_cast<double>(k) + 0.5) / (static_cast<double>(n) + 1.0);
  };
  result.estimate = std::max(0.0, epsilon_from_rates(rate(k_in, n_in), rate(k_out, n_out), delta));
  result.lower = std::max(0.0, epsilon_lower_from_counts(k_in, n_in, k_out, n_out, delta, a));
  return result;
}

}  // namespace gpdp::attack
