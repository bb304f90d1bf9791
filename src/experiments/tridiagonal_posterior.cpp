#include "gpdp/experiments/tridiagonal_posterior.hpp"

#include <fmt/format.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"

namespace gpdp::experiments {

namespace {
void check(lapack_int info, const char* routine) {
  if (info != 0) throw NumericalError(fmt::format("tridiagonal posterior: {} failed ({})", routine, info));
}
}  // namespace

void TridiagonalPosterior::refit(const Kernel& kernel, const PairwiseDistances& distances,
                                 const Eigen::VectorXd& y) {
  require(distances.train.rows() >= 1 && distances.train.rows() == y.size(),
          "tridiagonal posterior: need n ≥ 1 covariates and as many responses");
  distances.kernel_matrices(kernel, reflectors_, b_);
  prior_var_ = kernel.of_distance(0.0);
  const auto n = static_cast<lapack_int>(reflectors_.rows());
  const auto m = static_cast<lapack_int>(b_.rows());
  diag_.resize(n);
  offdiag_.resize(std::max<lapack_int>(n - 1, 1));
  tau_.resize(std::max<lapack_int>(n - 1, 1));
  // Workspace: the larger of the two routines' optimal sizes (queried; the _work variants skip
  // LAPACKE's NaN scan of the inputs, which are finite by construction).
  double query_trd = 0.0;
  double query_mtr = 0.0;
  check(LAPACKE_dsytrd_work(LAPACK_COL_MAJOR, 'L', n, reflectors_.data(), n, diag_.data(), offdiag_.data(),
                            tau_.data(), &query_trd, -1),
        "dsytrd (workspace query)");
  check(LAPACKE_dormtr_work(LAPACK_COL_MAJOR, 'R', 'L', 'N', m, n, reflectors_.data(), n, tau_.data(),
                            b_.data(), m, &query_mtr, -1),
        "dormtr (workspace query)");
  const auto lwork = static_cast<Eigen::Index>(std::max({query_trd, query_mtr, 1.0}));
  if (work_.size() < lwork) work_.resize(lwork);
  check(LAPACKE_dsytrd_work(LAPACK_COL_MAJOR, 'L', n, reflectors_.data(), n, diag_.data(), offdiag_.data(),
                            tau_.data(), work_.data(), static_cast<lapack_int>(work_.size())),
        "dsytrd");
  check(LAPACKE_dormtr_work(LAPACK_COL_MAJOR, 'R', 'L', 'N', m, n, reflectors_.data(), n, tau_.data(),
                            b_.data(), m, work_.data(), static_cast<lapack_int>(work_.size())),
        "dormtr (B = K(xs, X) Q)");
  qty_ = y;
  check(LAPACKE_dormtr_work(LAPACK_COL_MAJOR, 'L', 'L', 'T', n, 1, reflectors_.data(), n, tau_.data(),
                            qty_.data(), n, work_.data(), static_cast<lapack_int>(work_.size())),
        "dormtr (Qᵀ y)");
}

TridiagonalPosterior::Ldl TridiagonalPosterior::factor(double r) const {
  require(r > 0.0 && std::isfinite(r), "tridiagonal posterior: the ridge r must be positive and finite");
  require(n() >= 1, "tridiagonal posterior: refit first");
  const Eigen::Index n = this->n();
  Ldl f;
  f.pivots.resize(n);
  f.multipliers.resize(std::max<Eigen::Index>(n - 1, 1));
  const double r2 = r * r;
  f.pivots[0] = diag_[0] + r2;
  for (Eigen::Index j = 1; j < n; ++j) {
    if (!(f.pivots[j - 1] > 0.0)) break;
    f.multipliers[j - 1] = offdiag_[j - 1] / f.pivots[j - 1];
    f.pivots[j] = diag_[j] + r2 - f.multipliers[j - 1] * offdiag_[j - 1];
  }
  const double min_pivot = f.pivots.minCoeff();
  if (!(min_pivot > 0.0)) {
    throw NumericalError(fmt::format(
        "tridiagonal posterior: LDLᵀ pivot {:.3g} ≤ 0 at r = {:.3g}: K + r² I is not positive definite "
        "to working precision",
        min_pivot, r));
  }
  return f;
}

Eigen::VectorXd TridiagonalPosterior::mean(const Ldl& f) const {
  // (T + r² I) v = Qᵀ y by forward and backward substitution with L D Lᵀ; μ = B v.
  const Eigen::Index n = this->n();
  Eigen::VectorXd v = qty_;
  for (Eigen::Index j = 1; j < n; ++j) v[j] -= f.multipliers[j - 1] * v[j - 1];
  v.array() /= f.pivots.array();
  for (Eigen::Index j = n - 2; j >= 0; --j) v[j] -= f.multipliers[j] * v[j + 1];
  return b_ * v;
}

Eigen::VectorXd TridiagonalPosterior::variance(const Ldl& f) const {
  // Row i of W = B L⁻ᵀ is L⁻¹ B_iᵀ; computed column by column (contiguous, vectorised over i).
  Eigen::ArrayXd w = b_.col(0).array();
  Eigen::ArrayXd explained = w.square() / f.pivots[0];
  for (Eigen::Index j = 1; j < n(); ++j) {
    w = b_.col(j).array() - f.multipliers[j - 1] * w;
    explained += w.square() * (1.0 / f.pivots[j]);
  }
  return (prior_var_ - explained).matrix();
}

Eigen::VectorXd TridiagonalPosterior::mean(double r) const { return mean(factor(r)); }

Eigen::VectorXd TridiagonalPosterior::variance(double r) const { return variance(factor(r)); }

Eigen::VectorXd TridiagonalPosterior::excursion_z(double r, double threshold) const {
  const Ldl f = factor(r);
  return standardised_excess(mean(f), variance(f), threshold);
}

}  // namespace gpdp::experiments
