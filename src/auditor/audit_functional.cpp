#include "gpdp/auditor/audit_functional.hpp"

#include <algorithm>
#include <cmath>

#include "gpdp/auditor/gaussian_divergence.hpp"
#include "gpdp/error.hpp"
#include "gpdp/posterior.hpp"

namespace gpdp::auditor {

double functional_rkhs_distance(const Kernel& kernel, double r, const NeighbourPair& pair) {
  const Eigen::Index n = pair.X.rows();
  require(n >= 1 && pair.Xp.rows() == n && pair.y.size() == n && pair.yp.size() == n,
          "functional_rkhs_distance: malformed neighbour pair");
  require(pair.X.topRows(n - 1) == pair.Xp.topRows(n - 1),
          "functional_rkhs_distance: the neighbours must share rows 0..n−2");
  // σ plays no part in μ_D; the representer weights need only K + r² I.
  const Eigen::VectorXd a = Posterior(kernel, pair.X, pair.y, {r, 1.0}).weights();
  const Eigen::VectorXd ap = Posterior(kernel, pair.Xp, pair.yp, {r, 1.0}).weights();
  Points z(n + 1, pair.X.cols());
  z.topRows(n) = pair.X;
  z.row(n) = pair.Xp.row(n - 1);
  Eigen::VectorXd c(n + 1);
  c.head(n) = a;
  c.head(n - 1) -= ap.head(n - 1);  // the common core: same covariates in X and X'
  c(n) = -ap(n - 1);
  return std::sqrt(std::max(0.0, c.dot(kernel.gram(z) * c)));
}

double functional_process_divergence(const Kernel& kernel, double r, double noise_scale,
                                     const NeighbourPair& pair, double alpha) {
  const double d = functional_rkhs_distance(kernel, r, pair) / noise_scale;
  return alpha * d * d / 2.0;
}

double functional_pair_divergence(const Kernel& kernel, double r, double noise_scale,
                                  const NeighbourPair& pair, double alpha) {
  const Eigen::VectorXd mu = Posterior(kernel, pair.X, pair.y, {r, 1.0}).mean(pair.test);
  const Eigen::VectorXd mup = Posterior(kernel, pair.Xp, pair.yp, {r, 1.0}).mean(pair.test);
  const Eigen::MatrixXd cov = noise_scale * noise_scale * kernel.gram(pair.test);
  if (!well_conditioned(cov)) return std::nan("");
  return gaussian_renyi_divergence(alpha, mu, cov, mup, cov);
}

}  // namespace gpdp::auditor
