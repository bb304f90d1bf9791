#pragma once
// A two-component Gaussian mixture on the real line, fitted by maximum likelihood with EM.
// The attack models log v̂_D(x₀) with it (paper App. C).
#include <array>
#include <vector>

namespace gpdp::attack {

struct GaussianMixture2 {
  std::array<double, 2> weight{0.5, 0.5};
  std::array<double, 2> mean{0.0, 0.0};
  std::array<double, 2> sd{1.0, 1.0};

  double log_density(double x) const;
  // Average log-likelihood of the sample.
  double mean_log_likelihood(const std::vector<double>& xs) const;
};

struct EmOptions {
  int max_iterations = 300;
  double tolerance = 1e-9;  // stop when the mean log-likelihood improves by less
  // Each component's sd is kept ≥ sd_floor_fraction · sd(sample) (avoids collapse onto one point).
  double sd_floor_fraction = 1e-3;
  // Samples larger than 4·bins are rounded to `bins` equal bins over their range first (weighted
  // EM; each term changes by O((h/sd)²), h = bin width); 0 = never.
  int bins = 256;
};

// EM from several deterministic starts (quantile splits of the sample); returns the best fit.
// Needs at least 4 finite values.
GaussianMixture2 fit_gaussian_mixture(const std::vector<double>& xs, const EmOptions& options = {});

}  // namespace gpdp::attack
