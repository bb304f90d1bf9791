#pragma once
// Evaluation of a membership score S (larger = "member"), paper App. C: the test declares
// membership when S ≥ t, FPR(t) = P_out{S ≥ t}, TPR(t) = P_in{S ≥ t}.
#include <vector>

namespace gpdp::attack {

// The false-positive levels the attack reports (paper: 0.1 and 0.01; 0.001 added).
inline constexpr double kFprLevels[3] = {0.1, 0.01, 0.001};

struct RocPoint {
  double fpr;
  double tpr;
};

// The empirical ROC curve through (0,0) and (1,1), one point per distinct threshold.
std::vector<RocPoint> roc_curve(const std::vector<double>& in_scores,
                                const std::vector<double>& out_scores);
// At most `points` points of a ROC curve, log-spaced in FPR (keeps the low-FPR corner for
// log-log plots) plus the end points.
std::vector<RocPoint> thin_roc(const std::vector<RocPoint>& roc, int points);

// AUC = P(S_in > S_out) + ½ P(S_in = S_out) (Mann–Whitney).
double auc(const std::vector<double>& in_scores, const std::vector<double>& out_scores);

// TPR at the most permissive threshold whose empirical FPR is ≤ α: with k = ⌊α N_out⌋ and
// s₍ₖ₊₁₎ the (k+1)-th largest out score, TPR@α = #{in > s₍ₖ₊₁₎} / N_in (ties never count).
double tpr_at_fpr(const std::vector<double>& in_scores, const std::vector<double>& out_scores,
                  double alpha);

// Clopper–Pearson one-sided bounds for a binomial proportion k/n at confidence 1 − a.
double clopper_pearson_lower(long k, long n, double a);
double clopper_pearson_upper(long k, long n, double a);

// The largest TPR an (ε, δ)-DP mechanism allows at a given FPR, from both hypothesis-testing
// inequalities: TPR ≤ e^ε FPR + δ and 1 − FPR ≤ e^ε (1 − TPR) + δ (Kairouz et al. 2015).
double dp_max_tpr(double fpr, double epsilon, double delta);

// Empirical lower bound on ε implied by an attack (for a fixed δ). The threshold is chosen on the
// SHADOW scores (independent of the evaluation sets), maximising the confidence-bound version of
// max{ log((TPR − δ)/FPR), log((1 − FPR − δ)/(1 − TPR)) }. On the EVALUATION scores:
//   estimate = that expression with the rates (k + ½)/(n + 1) (finite when a count is 0),
//   lower    = the same with Clopper–Pearson bounds (TPR low, FPR high or the reverse), each at
//              1 − (1 − confidence)/2, so the joint statement holds with probability ≥ confidence.
// Both are clamped below at 0 ("no evidence of leakage").
struct EmpiricalEpsilon {
  double estimate = 0.0;
  double lower = 0.0;
  double threshold = 0.0;
  double confidence = 0.95;
};
EmpiricalEpsilon empirical_epsilon(const std::vector<double>& shadow_in,
                                   const std::vector<double>& shadow_out,
                                   const std::vector<double>& eval_in,
                                   const std::vector<double>& eval_out, double delta,
                                   double confidence = 0.95);

}  // namespace gpdp::attack
