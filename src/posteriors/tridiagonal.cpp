#include "gpdp/posteriors/tridiagonal.hpp"

#include <fmt/format.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/vector_exp.hpp"

namespace gpdp {

namespace {
// explained(i, k) = Σ_j w_ijk² / D_jk with w_ik = L_k⁻¹ B_iᵀ (forward substitution), for m points
// and K ridges at once: column j of B is read once for all ridges; the inner loop runs over the
// points (contiguous). `inv_pivots` and `multipliers` are n x K column-major; w and explained are
// m x K column-major (w is scratch).
#define GPDP_TRIDIAGONAL_SWEEP_BODY                \
  for (long k = 0; k < ridges; ++k) {              \
    const double d = inv_pivots[k * n];            \
    double* wk = w + k * m;                        \
    double* ek = explained + k * m;                \
    for (long i = 0; i < m; ++i) {                 \
      wk[i] = b[i];                                \
      ek[i] = b[i] * b[i] * d;                     \
    }                                              \
  }                                                \
  for (long j = 1; j < n; ++j) {                   \
    const double* bj = b + j * m;                  \
    for (long k = 0; k < ridges; ++k) {            \
      const double l = multipliers[k * n + j - 1]; \
      const double d = inv_pivots[k * n + j];      \
      double* wk = w + k * m;                      \
      double* ek = explained + k * m;              \
      for (long i = 0; i < m; ++i) {               \
        const double v = bj[i] - l * wk[i];        \
        wk[i] = v;                                 \
        ek[i] += v * v * d;                        \
      }                                            \
    }                                              \
  }

void sweep_generic(const double* b, long m, long n, const double* inv_pivots,
                   const double* multipliers, long ridges, double* w, double* explained) {
  GPDP_TRIDIAGONAL_SWEEP_BODY
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same loop compiled for AVX2 + FMA (4 lanes), taken when the CPU has them.
__attribute__((target("avx2,fma"))) void sweep_avx2(const double* b, long m, long n,
                                                    const double* inv_pivots,
                                                    const double* multipliers, long ridges,
                                                    double* w, double* explained) {
  GPDP_TRIDIAGONAL_SWEEP_BODY
}
#endif
#undef GPDP_TRIDIAGONAL_SWEEP_BODY

void sweep(const double* b, long m, long n, const double* inv_pivots, const double* multipliers,
           long ridges, double* w, double* explained) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (avx2_fma_available()) {
    sweep_avx2(b, m, n, inv_pivots, multipliers, ridges, w, explained);
    return;
  }
#endif
  sweep_generic(b, m, n, inv_pivots, multipliers, ridges, w, explained);
}

void check(lapack_int info, const char* routine) {
  if (info != 0)
    throw NumericalError(fmt::format("tridiagonal posterior: {} failed ({})", routine, info));
}
}  // namespace

TridiagonalPosterior::TridiagonalPosterior(const PairwiseDistances& distances,
                                           const Eigen::VectorXd& y)
    : distances_(distances), y_(y) {
  distances.check_responses(y, "tridiagonal posterior");
}

void TridiagonalPosterior::refit(const Kernel& kernel) {
  distances_.kernel_matrices(kernel, reflectors_, b_);
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
  check(LAPACKE_dsytrd_work(LAPACK_COL_MAJOR, 'L', n, reflectors_.data(), n, diag_.data(),
                            offdiag_.data(), tau_.data(), &query_trd, -1),
        "dsytrd (workspace query)");
  check(LAPACKE_dormtr_work(LAPACK_COL_MAJOR, 'R', 'L', 'N', m, n, reflectors_.data(), n,
                            tau_.data(), b_.data(), m, &query_mtr, -1),
        "dormtr (workspace query)");
  const auto lwork = static_cast<Eigen::Index>(std::max({query_trd, query_mtr, 1.0}));
  if (work_.size() < lwork) work_.resize(lwork);
  check(LAPACKE_dsytrd_work(LAPACK_COL_MAJOR, 'L', n, reflectors_.data(), n, diag_.data(),
                            offdiag_.data(), tau_.data(), work_.data(),
                            static_cast<lapack_int>(work_.size())),
        "dsytrd");
  check(
      LAPACKE_dormtr_work(LAPACK_COL_MAJOR, 'R', 'L', 'N', m, n, reflectors_.data(), n, tau_.data(),
                          b_.data(), m, work_.data(), static_cast<lapack_int>(work_.size())),
      "dormtr (B = K(xs, X) Q)");
  qty_ = y_;
  check(
      LAPACKE_dormtr_work(LAPACK_COL_MAJOR, 'L', 'L', 'T', n, 1, reflectors_.data(), n, tau_.data(),
                          qty_.data(), n, work_.data(), static_cast<lapack_int>(work_.size())),
      "dormtr (Qᵀ y)");
}

TridiagonalPosterior::Ldl TridiagonalPosterior::factor(double r) const {
  require(r > 0.0 && std::isfinite(r),
          "tridiagonal posterior: the ridge r must be positive and finite");
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
    throw NumericalError(
        fmt::format("tridiagonal posterior: LDLᵀ pivot {:.3g} ≤ 0 at r = {:.3g}: K + r² I is not "
                    "positive definite "
                    "to working precision",
                    min_pivot, r));
  }
  return f;
}

Eigen::VectorXd TridiagonalPosterior::solve(const Ldl& f) const {
  // (T + r² I) v = Qᵀ y by forward and backward substitution with L D Lᵀ.
  const Eigen::Index n = this->n();
  Eigen::VectorXd v = qty_;
  for (Eigen::Index j = 1; j < n; ++j) v[j] -= f.multipliers[j - 1] * v[j - 1];
  v.array() /= f.pivots.array();
  for (Eigen::Index j = n - 2; j >= 0; --j) v[j] -= f.multipliers[j] * v[j + 1];
  return v;
}

Eigen::MatrixXd TridiagonalPosterior::explained(const std::vector<Ldl>& factors) const {
  // Row i of W_k = B L_k⁻ᵀ is L_k⁻¹ B_iᵀ; one sweep over B's columns for every factor.
  const Eigen::Index n = this->n();
  const auto count = static_cast<Eigen::Index>(factors.size());
  Eigen::MatrixXd inv_pivots(n, count);
  Eigen::MatrixXd multipliers = Eigen::MatrixXd::Zero(n, count);
  for (Eigen::Index k = 0; k < count; ++k) {
    const Ldl& f = factors[static_cast<std::size_t>(k)];
    inv_pivots.col(k) = f.pivots.cwiseInverse();
    multipliers.col(k).head(n - 1) = f.multipliers.head(n - 1);
  }
  Eigen::MatrixXd w(b_.rows(), count);
  Eigen::MatrixXd out(b_.rows(), count);
  sweep(b_.data(), b_.rows(), n, inv_pivots.data(), multipliers.data(), count, w.data(),
        out.data());
  return out;
}

void TridiagonalPosterior::moments(double r, Eigen::VectorXd& mean, Eigen::VectorXd& variance) {
  const Ldl f = factor(r);
  mean = b_ * solve(f);
  variance = (prior_var_ - explained({f}).col(0).array()).matrix();
}

Eigen::MatrixXd TridiagonalPosterior::excursion_z(const std::vector<double>& ridges,
                                                  double threshold) {
  std::vector<Ldl> factors;
  factors.reserve(ridges.size());
  for (const double r : ridges) factors.push_back(factor(r));
  Eigen::MatrixXd v(n(), static_cast<Eigen::Index>(ridges.size()));  // (T + r_k² I)⁻¹ Qᵀ y
  for (std::size_t k = 0; k < factors.size(); ++k)
    v.col(static_cast<Eigen::Index>(k)) = solve(factors[k]);
  const Eigen::MatrixXd mu = b_ * v;
  const Eigen::MatrixXd kd = (prior_var_ - explained(factors).array()).matrix();
  Eigen::MatrixXd z(mu.rows(), mu.cols());
  for (Eigen::Index k = 0; k < z.cols(); ++k)
    z.col(k) = standardised_excess(mu.col(k), kd.col(k), threshold);
  return z;
}

}  // namespace gpdp
