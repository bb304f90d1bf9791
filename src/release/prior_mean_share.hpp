#pragma once
// The public rule for a private prior mean's share of the target ε (`--prior-mean dp` without a
// fraction; docs/privacy.md "A private prior mean"). The mean decides which side of the threshold
// the map takes where the records say little, so its noise must resolve the side: the rule spends
// what makes the mean's noise s_m = kPriorMeanResolution·M_Y (a sign response's share of records
// above the threshold to ±0.05, one standard deviation), but at least kPriorMeanMinFraction and at
// most kPriorMeanMaxFraction of the target. Public inputs only: n, M_Y, δ, the conversion, E.
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::release {

inline constexpr double kPriorMeanResolution = 0.1;   // s_m / M_Y the rule aims at
inline constexpr double kPriorMeanMinFraction = 0.1;  // of the target ε, when n is large
inline constexpr double kPriorMeanMaxFraction = 0.5;  // ... when n is small (the map keeps half)

// `mean`: the prior mean's Gaussian mechanism (kind PriorMean, its n and M_Y set). The fraction of
// `target_epsilon` the rule gives it, in [kPriorMeanMinFraction, kPriorMeanMaxFraction].
double prior_mean_fraction(const privacy::GpMechanism& mean, double target_epsilon, double delta,
                           privacy::Conversion conversion);

}  // namespace gpdp::release
