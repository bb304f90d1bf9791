#include "gpdp/posteriors/ridge_cholesky.hpp"

#include <cblas.h>
#include <fmt/format.h>
#include <lapacke.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/factorisation.hpp"

namespace gpdp {

RidgeCholesky::RidgeCholesky(const PairwiseDistances& distances, const Eigen::VectorXd& y)
    : distances_(distances), y_(y) {
  distances.check_responses(y, "ridge Cholesky");
}

void RidgeCholesky::refit(const Kernel& kernel) {
  distances_.kernel_matrices(kernel, k_, k_cross_);
  prior_var_ = kernel.of_distance(0.0);
}

void RidgeCholesky::factor(double r) {
  require(r > 0.0 && std::isfinite(r), "ridge Cholesky: the ridge r must be positive and finite");
  require(k_.rows() >= 1, "ridge Cholesky: refit first");
  l_ = k_;
  l_.diagonal().array() += r * r;
  if (const int info = cholesky_lower(l_); info != 0) {
    throw NumericalError(
        fmt::format("ridge Cholesky: K + r² I is not positive definite (r = {:.3g}, "
                    "potrf info {})",
                    r, info));
  }
}

Eigen::MatrixXd RidgeCholesky::apply(double r, Eigen::MatrixXd rhs) {
  require(rhs.rows() == k_.rows(), "ridge Cholesky: right-hand sides need n rows");
  factor(r);
  const auto n = static_cast<lapack_int>(k_.rows());
  // The _work variants: the plain LAPACKE wrappers scan every input for NaN first (K is finite by
  // construction), which costs as much as the solve with the n x 1 right-hand side.
  LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, static_cast<lapack_int>(rhs.cols()), l_.data(), n,
                      rhs.data(), n);
  return k_cross_ * rhs;
}

void RidgeCholesky::moments(double r, Eigen::VectorXd& mean, Eigen::VectorXd& variance) {
  factor(r);
  const auto n = static_cast<lapack_int>(k_.rows());
  const auto m = static_cast<lapack_int>(k_cross_.rows());
  Eigen::VectorXd alpha = y_;
  LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, 1, l_.data(), n, alpha.data(), n);
  mean.noalias() = k_cross_ * alpha;
  v_ = k_cross_;
  cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, m, n, 1.0, l_.data(),
              n, v_.data(), m);
  // Row norms of a column-major V, accumulated column by column (contiguous, vectorised).
  Eigen::ArrayXd explained = Eigen::ArrayXd::Zero(m);
  for (Eigen::Index j = 0; j < v_.cols(); ++j) explained += v_.col(j).array().square();
  variance = (prior_var_ - explained).matrix();
}

Eigen::MatrixXd RidgeCholesky::covariance(const Eigen::MatrixXd& prior) const {
  const auto m = static_cast<blasint>(v_.rows());
  require(m >= 1 && prior.rows() == m && prior.cols() == m,
          "ridge Cholesky: call moments() first, and give the m x m prior covariance of the same "
          "points");
  Eigen::MatrixXd out = prior;
  cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, m, static_cast<blasint>(v_.cols()), -1.0,
              v_.data(), m, 1.0, out.data(), m);
  return out;
}

}  // namespace gpdp
