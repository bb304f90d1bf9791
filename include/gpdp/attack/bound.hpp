#pragma once
// The (ε, δ) guarantee of the release the attack probes, from the project's accountant
// (docs/mathematics.md §2): L draws of the posterior path of a size-n dataset with |y| ≤ M_Y = 1,
// V_n = V̄_n(r) (Prop. 3, κ from the kernel on [0, 1]) and Δ_n from Lemma B.7 for the exponential
// kernel (the paper's choice in §4), Lemma B.1 for any other kernel. The attack's H_in / H_out are
// mixtures over replace-one neighbouring pairs, so every (ε, δ) bound also bounds its ROC: TPR ≤
// e^ε FPR + δ.
#include "gpdp/attack/shadow.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::attack {

// The mechanism of one draw at (r, σ); σ = +∞ is the covariance-only limit.
privacy::GpMechanism attack_mechanism(const ShadowSetting& setting, double r, double sigma);

// ε(δ) for `draws` draws (draws ≥ 1).
privacy::Guarantee attack_guarantee(const ShadowSetting& setting, double r, double sigma, int draws,
                                    double delta,
                                    privacy::Conversion conversion = privacy::Conversion::Mironov);

}  // namespace gpdp::attack
