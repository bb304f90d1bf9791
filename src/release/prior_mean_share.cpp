// The public rule for a private prior mean's share of ε (prior_mean_share.hpp).
#include "prior_mean_share.hpp"

#include <algorithm>

namespace gpdp::release {

double prior_mean_fraction(const privacy::GpMechanism& mean, double target_epsilon, double delta,
                           privacy::Conversion conversion) {
  privacy::GpMechanism resolved = mean;
  resolved.noise_scale = kPriorMeanResolution * mean.M_Y;
  const double needed =
      privacy::Accountant().add(resolved, 1).epsilon(delta, conversion).epsilon / target_epsilon;
  return std::clamp(needed, kPriorMeanMinFraction, kPriorMeanMaxFraction);
}

}  // namespace gpdp::release
