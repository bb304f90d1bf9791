#include "gpdp/posteriors/multi_ridge.hpp"

#include <cmath>
#include <limits>

namespace gpdp {

Eigen::MatrixXd MultiRidgePosterior::excursion_z(const std::vector<double>& ridges,
                                                 double threshold) {
  Eigen::MatrixXd z;
  Eigen::VectorXd mean, variance;
  for (std::size_t k = 0; k < ridges.size(); ++k) {
    moments(ridges[k], mean, variance);
    if (k == 0) z.resize(mean.size(), static_cast<Eigen::Index>(ridges.size()));
    z.col(static_cast<Eigen::Index>(k)) = standardised_excess(mean, variance, threshold);
  }
  return z;
}

Eigen::VectorXd standardised_excess(const Eigen::VectorXd& mu, const Eigen::VectorXd& k, double t) {
  Eigen::VectorXd z(mu.size());
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < mu.size(); ++i) {
    const double d = mu[i] - t;
    z[i] = k[i] > 0.0 ? d / std::sqrt(k[i]) : (d >= 0.0 ? inf : -inf);
  }
  return z;
}

}  // namespace gpdp
