#pragma once
// What a guarantee means for a membership attacker: the largest true-positive rate (TPR) any test
// "was this record in the data?" can reach at a given false-positive rate (FPR), against a release
// or a whole budget. Two valid bounds; the smaller is reported:
//   * the hypothesis-testing region of Rényi DP (Balle et al. 2020, "Hypothesis testing
//     interpretations and Rényi differential privacy"; Zhu, Dong, Wang 2022): a test turns the two
//     output distributions into Bernoulli(TPR) and Bernoulli(FPR), and Rényi divergence can only
//     shrink (data processing), so at every admissible order
//         d_α(TPR ‖ FPR) ≤ ε_α   and   d_α(FPR ‖ TPR) ≤ ε_α   (replace-one neighbours: both ways),
//     d_α the binary Rényi divergence; the bound is min over α of the largest TPR meeting both;
//   * the (ε, δ) region (Kairouz, Oh, Viswanath 2015): TPR ≤ e^ε FPR + δ and
//     1 − FPR ≤ e^ε (1 − TPR) + δ.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/privacy/accountant.hpp"

namespace gpdp::privacy {

// The false-positive rates every report uses: 0.1 %, 1 %, 10 %.
const std::vector<double>& risk_fprs();

// Binary Rényi divergence d_α(p ‖ q) = log(p^α q^(1−α) + (1−p)^α (1−q)^(1−α)) / (α − 1).
double binary_renyi(double alpha, double p, double q);
// Largest TPR ∈ [fpr, 1] with d_α(TPR ‖ fpr) ≤ rho and d_α(fpr ‖ TPR) ≤ rho (bisection; the upper
// end of the final bracket, so never below the true value).
double tpr_bound_rdp(double fpr, double alpha, double rho);
// The same, minimised over the admissible orders of an RDP curve (rdp(α) = +∞ outside).
double tpr_bound_rdp(double fpr, double alpha_max, const std::function<double(double)>& rdp);
// min(1, e^ε fpr + δ, 1 − e^(−ε)(1 − fpr − δ)).
double tpr_bound_epsilon_delta(double fpr, double epsilon, double delta);

struct RiskAtFpr {
  double fpr = 0.0;
  double tpr = 0.0;      // the reported bound: the smaller of the two
  double tpr_rdp = 1.0;  // from the RDP curve (1 when no curve is given)
  double tpr_epsilon_delta = 1.0;
};
struct AttackRisk {
  std::vector<RiskAtFpr> points;  // at risk_fprs()
  std::string basis;              // what the bound was computed from
};

// Against a composition: its whole RDP curve and its (ε, δ) guarantee `g`.
AttackRisk attack_risk(const Accountant& composed, const Guarantee& g);
// Against (α, ρ)-RDP at one order together with (ε, δ)-DP (a filter's budget); rho < 0: no
// RDP statement, (ε, δ) only.
AttackRisk attack_risk(double alpha, double rho, double epsilon, double delta);

// {"tpr_at_fpr": {"0.001": .., "0.01": .., "0.1": ..}, "tpr_rdp": {..}, "tpr_epsilon_delta": {..},
//  "basis": ..}
nlohmann::json to_json(const AttackRisk& risk);
// "an attacker at 1 % false positives identifies at most 3.1 %".
std::string risk_sentence(const AttackRisk& risk);

}  // namespace gpdp::privacy
