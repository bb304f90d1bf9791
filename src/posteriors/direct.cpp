#include "gpdp/posteriors/direct.hpp"

#include "gpdp/error.hpp"
#include "gpdp/posterior.hpp"

namespace gpdp {

DirectPosterior::DirectPosterior(const Points& X, const Eigen::VectorXd& y, const Points& xs)
    : X_(X), y_(y), xs_(xs) {}

void DirectPosterior::refit(const Kernel& kernel) { kernel_ = kernel; }

void DirectPosterior::moments(double r, Eigen::VectorXd& mean, Eigen::VectorXd& variance) {
  require(kernel_.has_value(), "direct posterior: refit first");
  const Posterior posterior(*kernel_, X_, y_, Hyperparameters{r, 1.0});
  mean = posterior.mean(xs_);
  variance = posterior.variance(xs_);  // σ = 1: k_D(x, x)
}

}  // namespace gpdp
