#pragma once
// The privacy budget of a dataset, enforced as a privacy filter over adaptively chosen releases.
//
// Releases are chosen adaptively (a data holder looks at one map before asking for the next), so
// their privacy parameters are themselves functions of earlier outputs. Composition theorems with
// parameters fixed in advance do not cover that; privacy filters do (Rogers, Roth, Ullman, Vadhan
// 2016). The halting rule implemented here is exactly the one proven by
//
//   Feldman & Zrnic 2021, "Individual Privacy Accounting via a Rényi Filter", Theorem 3.1:
//   fix an order α ≥ 1 and a budget B ≥ 0; let each mechanism A_t be chosen, together with its
//   RDP parameter ρ_t (at order α), as a function of the earlier outputs. If Σ_t ρ_t ≤ B holds
//   almost surely (for every sequence of outputs), the adaptive composition is (α, B)-RDP.
//
// The order α (or a finite set Λ of orders) is FIXED WHEN THE BUDGET IS CREATED and stored with
// it; the rule never optimises α after seeing releases. A release is admitted iff, after it,
//     some α ∈ Λ has  Σ_releases ε_α ≤ B_α := ε_B − c(α, δ_B/|Λ|),
// c the conversion term (ε = R + c(α, δ)); a refused release is not run (ρ = 0), so the sum
// condition holds on every path. With |Λ| = 1 the whole interaction is (α, B_α)-RDP by the theorem
// and (ε_B, δ_B)-DP by the conversion, which holds for any pair of distributions with
// D_α ≤ B_α (CKS 2020 Prop. 12 as much as Mironov 2017 Prop. 3). With |Λ| > 1, the transcript is
// split by the first order still within budget at the end; on each part the process equals the
// single-order filter at that order, and a union bound over Λ gives δ_B in total (written out in
// docs/security.md). Concurrent use: Haney et al. 2023 extend fixed-order RDP filters to
// concurrent composition; the ledger also serialises releases (one transaction each).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/privacy/accountant.hpp"

namespace gpdp::privacy {

struct Budget {
  double epsilon = 0.0;  // ε_B > 0
  double delta = 0.0;    // δ_B ∈ (0, 1)
};

class RenyiFilter {
 public:
  // The filter for `budget`, its orders fixed now: `orders` if given, else the one order at
  // which the budget holds the most releases like `first` (the largest (ε_B − c(α, δ_B))/ε_α of
  // its curve). ParameterError for an invalid budget or order.
  static RenyiFilter create(const Budget& budget, Conversion conversion, const Accountant& first,
                            std::vector<double> orders = {});

  const Budget& budget() const { return budget_; }
  const std::vector<double>& orders() const { return orders_; }
  Conversion conversion() const { return conversion_; }
  // B_α = ε_B − c(α, δ_B/|Λ|), the RDP budget at an order of the filter.
  double rdp_budget(double alpha) const;

  struct Spend {
    double epsilon = 0.0;  // min over α ∈ Λ of Σ ε_α + c(α, δ_B/|Λ|): ε_B minus the room left
    double alpha = 0.0;       // the order attaining it
    double rdp = 0.0;         // Σ ε_α at that order
    double rdp_budget = 0.0;  // B_α at that order
    bool admitted = true;     // epsilon ≤ ε_B: some order is within its RDP budget
  };
  // The spend of `composed` (every release of the dataset, this one included); 0 when empty.
  Spend spend(const Accountant& composed) const;

  // {"epsilon", "delta", "orders", "conversion", "theorem"}; read back by from_json.
  nlohmann::json to_json() const;
  static RenyiFilter from_json(const nlohmann::json& j, const std::string& source);
  // One line citing the theorem, for certificates and reports.
  static std::string theorem();

 private:
  RenyiFilter(const Budget& budget, Conversion conversion, std::vector<double> orders);
  Budget budget_;
  Conversion conversion_;
  std::vector<double> orders_;
};

}  // namespace gpdp::privacy
