#include "gpdp/posteriors/spectral.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/factorisation.hpp"

namespace gpdp {

SpectralPosterior::SpectralPosterior(const PairwiseDistances& distances, const Eigen::VectorXd& y)
    : distances_(distances), y_(y) {
  distances.check_responses(y, "spectral posterior");
}

void SpectralPosterior::refit(const Kernel& kernel) {
  distances_.kernel_matrices(kernel, u_, k_cross_);
  decompose(kernel.of_distance(0.0));
}

void SpectralPosterior::decompose(double prior_var) {
  if (const int info = symmetric_eigen(u_, lambda_); info != 0)
    throw NumericalError(
        fmt::format("spectral posterior: the eigendecomposition failed ({})", info));
  const Eigen::Index n = u_.rows();
  uty_.noalias() = u_.transpose() * y_;
  a_.resize(k_cross_.rows(), n);
  a_.noalias() = k_cross_ * u_;
  a2_.resize(a_.rows(), a_.cols());
  a2_.array() = a_.array().square();
  prior_var_.setConstant(k_cross_.rows(), prior_var);
}

Eigen::VectorXd SpectralPosterior::inverse_shifted(double r) const {
  require(r > 0.0 && std::isfinite(r),
          "spectral posterior: the ridge r must be positive and finite");
  require(lambda_.size() >= 1, "spectral posterior: refit first");
  const Eigen::ArrayXd shifted = lambda_.array() + r * r;
  if (shifted.minCoeff() <= 0.0) {
    throw NumericalError(fmt::format(
        "spectral posterior: λ_min + r² = {:.3g} ≤ 0 (λ_min = {:.3g}, r = {:.3g}): K is not PSD to "
        "working precision at this ridge",
        shifted.minCoeff(), lambda_.minCoeff(), r));
  }
  return shifted.inverse().matrix();
}

void SpectralPosterior::moments(double r, Eigen::VectorXd& mean, Eigen::VectorXd& variance) {
  const Eigen::VectorXd inv = inverse_shifted(r);
  mean = a_ * inv.cwiseProduct(uty_);
  variance = prior_var_ - a2_ * inv;
}

double SpectralPosterior::effective_dimension(double r) const {
  return lambda_.cwiseProduct(inverse_shifted(r)).sum();
}

}  // namespace gpdp
