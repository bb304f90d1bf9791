#pragma once
// ε_L(θ) of the excursion experiments through the project accountant (gpdp/privacy): one release
// = L independent posterior paths of the exponential-kernel GP on the unit box [0,1]^d with
// κ = exp(−√d/ℓ) (Proposition 3), M_Y = 1, Theorem 3.1 per path, RDP composition over L, then the
// chosen RDP → (ε, δ) conversion. Sensitivity: Lemma B.7 in 1-D, Lemma B.1 otherwise (App. D),
// unless another proven lemma is chosen (e.g. Lemma S.1, "b1-sharp").
#include <optional>
#include <string>

#include "gpdp/experiments/search.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/bounds.hpp"

namespace gpdp::experiments {

struct ExcursionPrivacy {
  long n = 100;   // size of the private data set
  int dim = 1;    // 1: Lemma B.7; 2: Lemma B.1
  int paths = 1;  // L
  double delta = 0.005;
  double M_Y = 1.0;
  privacy::Conversion conversion = privacy::Conversion::Mironov;
  std::optional<privacy::SensitivityLemma> lemma;  // default: B.7 in 1-D, B.1 otherwise

  privacy::SensitivityLemma sensitivity() const;

  // ε_L(θ); +∞ when θ admits no finite guarantee.
  double epsilon(const Theta& theta) const;
  // "Lemma B.7, Theorem 3.1, L = 1, δ = 0.005, Mironov 2017 Prop. 3" etc.
  std::string description() const;
  PrivacyConstraint constraint(double epsilon_max) const;
};

}  // namespace gpdp::experiments
