#include "gpdp/experiments/spectral_posterior.hpp"

#include <fmt/format.h>
#include <lapacke.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/vector_exp.hpp"

namespace gpdp::experiments {

PairwiseDistances::PairwiseDistances(const Points& X, const Points& xs) {
  require(xs.cols() == X.cols(),
          "spectral posterior: evaluation points and covariates differ in dimension");
  auto distances = [&](const Points& a) {
    Eigen::MatrixXd d2 = Eigen::MatrixXd::Zero(a.rows(), X.rows());
    for (Eigen::Index c = 0; c < X.cols(); ++c) {
      d2.array() += (a.col(c).replicate(1, X.rows()) - X.col(c).transpose().replicate(a.rows(), 1))
                        .array()
                        .square();
    }
    return Eigen::MatrixXd(d2.cwiseSqrt());
  };
  train = distances(X);
  cross = distances(xs);
}

namespace {
void kernel_of(const Kernel& kernel, const Eigen::MatrixXd& distance, Eigen::MatrixXd& out) {
  out.resize(distance.rows(), distance.cols());
  if (kernel.family() == KernelFamily::Exponential) {
    exp_scaled(distance.data(), out.data(), static_cast<std::size_t>(distance.size()),
               -1.0 / kernel.lengthscale());
  } else {
    out = distance.unaryExpr([&](double d) { return kernel.of_distance(d); });
  }
}
}  // namespace

void PairwiseDistances::kernel_matrices(const Kernel& kernel, Eigen::MatrixXd& gram,
                                        Eigen::MatrixXd& gram_cross) const {
  kernel_of(kernel, train, gram);
  kernel_of(kernel, cross, gram_cross);
}

SpectralPosterior::SpectralPosterior(const Kernel& kernel, const Points& X,
                                     const Eigen::VectorXd& y, const Points& xs) {
  require(X.rows() >= 1 && X.rows() == y.size(),
          "spectral posterior: need n ≥ 1 covariates and as many responses");
  require(xs.cols() == X.cols(),
          "spectral posterior: evaluation points and covariates differ in dimension");
  u_ = kernel.gram(X);
  k_cross_ = kernel.cross(xs, X);
  decompose(y, kernel.of_distance(0.0));
}

SpectralPosterior::SpectralPosterior(const Kernel& kernel, const PairwiseDistances& distances,
                                     const Eigen::VectorXd& y) {
  refit(kernel, distances, y);
}

void SpectralPosterior::refit(const Kernel& kernel, const PairwiseDistances& distances,
                              const Eigen::VectorXd& y) {
  require(distances.train.rows() >= 1 && distances.train.rows() == y.size(),
          "spectral posterior: need n ≥ 1 covariates and as many responses");
  distances.kernel_matrices(kernel, u_, k_cross_);
  decompose(y, kernel.of_distance(0.0));
}

void SpectralPosterior::decompose(const Eigen::VectorXd& y, double prior_var) {
  const auto n = static_cast<lapack_int>(u_.rows());
  lambda_.resize(n);
  // Workspace sizes of dsyevd with eigenvectors (LAPACK documentation): 1 + 6n + 2n², 3 + 5n.
  work_.resize(1 + 6 * static_cast<Eigen::Index>(n) + 2 * static_cast<Eigen::Index>(n) * n);
  iwork_.resize(3 + 5 * static_cast<Eigen::Index>(n));
  const lapack_int info = LAPACKE_dsyevd_work(
      LAPACK_COL_MAJOR, 'V', 'L', n, u_.data(), n, lambda_.data(), work_.data(),
      static_cast<lapack_int>(work_.size()), iwork_.data(), static_cast<lapack_int>(iwork_.size()));
  if (info != 0)
    throw NumericalError(fmt::format("spectral posterior: LAPACKE_dsyevd failed ({})", info));
  uty_.noalias() = u_.transpose() * y;
  a_.resize(k_cross_.rows(), n);
  a_.noalias() = k_cross_ * u_;
  a2_.resize(a_.rows(), a_.cols());
  a2_.array() = a_.array().square();
  prior_var_.setConstant(k_cross_.rows(), prior_var);
}

Eigen::VectorXd SpectralPosterior::inverse_shifted(double r) const {
  require(r > 0.0 && std::isfinite(r),
          "spectral posterior: the ridge r must be positive and finite");
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
  return standardised_excess(mu, kd, threshold);
}

double SpectralPosterior::effective_dimension(double r) const {
  return lambda_.cwiseProduct(inverse_shifted(r)).sum();
}

}  // namespace gpdp::experiments
