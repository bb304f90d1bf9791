#include "gpdp/experiments/spectral_posterior.hpp"

#include <fmt/format.h>
#include <lapacke.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::experiments {

SpectralPosterior::SpectralPosterior(const Kernel& kernel, const Points& X, const Eigen::VectorXd& y,
                                     const Points& xs) {
  require(X.rows() >= 1 && X.rows() == y.size(),
          "spectral posterior: need n ≥ 1 covariates and as many responses");
  require(xs.cols() == X.cols(), "spectral posterior: evaluation points and covariates differ in dimension");
  const Eigen::Index n = X.rows();
  Eigen::MatrixXd u = kernel.gram(X);
  lambda_.resize(n);
  const lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', static_cast<lapack_int>(n), u.data(),
                                         static_cast<lapack_int>(n), lambda_.data());
  if (info != 0) throw NumericalError(fmt::format("spectral posterior: LAPACKE_dsyevd failed ({})", info));
  uty_.noalias() = u.transpose() * y;
  a_.noalias() = kernel.cross(xs, X) * u;
  a2_ = a_.cwiseAbs2();
  prior_var_ = Eigen::VectorXd::Constant(xs.rows(), kernel.of_distance(0.0));
}

Eigen::VectorXd SpectralPosterior::inverse_shifted(double r) const {
  require(r > 0.0 && std::isfinite(r), "spectral posterior: the ridge r must be positive and finite");
  const Eigen::ArrayXd shifted = lambda_.array() + r * r;
  if (shifted.minCoeff() <= 0.0) {
    throw NumericalError(fmt::format(
        "spectral posterior: λ_min + r² = {:.3g} ≤ 0 (λ_min = {:.3g}, r = {:.3g}): K is not PSD to "
        "working precision at this ridge",
        shifted.minCoeff(), lambda_.minCoeff(), r));
  }
  return shifted.inverse().matrix();
}

Eigen::VectorXd SpectralPosterior::mean(double r) const {
  const Eigen::VectorXd w = inverse_shifted(r).cwiseProduct(uty_);
  return a_ * w;
}

Eigen::VectorXd SpectralPosterior::variance(double r) const {
  return prior_var_ - a2_ * inverse_shifted(r);
}

Eigen::VectorXd SpectralPosterior::excursion_z(double r, double threshold) const {
  const Eigen::VectorXd inv = inverse_shifted(r);
  const Eigen::VectorXd mu = a_ * inv.cwiseProduct(uty_);
  const Eigen::VectorXd kd = prior_var_ - a2_ * inv;
  Eigen::VectorXd z(mu.size());
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < mu.size(); ++i) {
    const double d = mu[i] - threshold;
    z[i] = kd[i] > 0.0 ? d / std::sqrt(kd[i]) : (d >= 0.0 ? inf : -inf);
  }
  return z;
}

double SpectralPosterior::effective_dimension(double r) const {
  return lambda_.cwiseProduct(inverse_shifted(r)).sum();
}

}  // namespace gpdp::experiments
