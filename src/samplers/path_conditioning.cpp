#include "gpdp/samplers/path_conditioning.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>

#include "gpdp/error.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/samplers/dense.hpp"

namespace gpdp {

namespace {

constexpr const char* kAlternatives =
    "fewer points per path (limits.max_points_per_path), a coarser grid, or the 1-D exponential "
    "kernel with η = 0 (O(n + k + m) Markov engine)";

// Q = L_n⁻¹ k(X, P): the posterior's cross terms, k_D(a, b) = k(a, b) − Q_aᵀ Q_b.
Eigen::MatrixXd data_solve(const Posterior& posterior, const Points& p) {
  Eigen::MatrixXd q = posterior.kernel().cross(posterior.X(), p);
  posterior.factor().matrixL().solveInPlace(q);
  return q;
}

// Cov(f(a), f(b)) of the released path f_D + g from the kernel block k(a, b) and the cross terms.
Eigen::MatrixXd path_covariance(const Posterior& posterior, double eta, const Eigen::MatrixXd& k,
                                const Eigen::MatrixXd& qa, const Eigen::MatrixXd& qb) {
  const double s2 = posterior.sigma() * posterior.sigma();
  Eigen::MatrixXd c = (s2 + eta * eta) * k;
  c.noalias() -= s2 * (qa.transpose() * qb);
  return c;
}

}  // namespace

double PathConditioning::bytes_for(double k, double n) { return 4.0 * k * k + 8.0 * (n + 3.0) * k; }

double PathConditioning::bytes() const {
  double b = 0.0;
  for (const Block& block : blocks_) b += 8.0 * static_cast<double>(block.rows.size());
  return b + 8.0 * static_cast<double>(basis_.size() + q_.size() + alpha_.size());
}

Eigen::MatrixXd PathConditioning::basis_points(int dim) const {
  const auto k = static_cast<Eigen::Index>(alpha_.size());
  Points b(k, dim);
  for (Eigen::Index i = 0; i < k; ++i) {
    for (int a = 0; a < dim; ++a) b(i, a) = basis_[static_cast<std::size_t>(i * dim + a)];
  }
  return b;
}

// ℓ = L⁻¹ b, block by block: ℓ_j = L_jj⁻¹ (b_j − L_j,<j ℓ_<j): one pass over the factor.
Eigen::MatrixXd PathConditioning::forward_substitute(Eigen::MatrixXd b) const {
  for (const Block& block : blocks_) {
    const Eigen::Index before = block.basis_before, r = block.rows.rows();
    auto segment = b.middleRows(before, r);
    if (before > 0) segment.noalias() -= block.rows.leftCols(before) * b.topRows(before);
    block.rows.middleCols(before, r).triangularView<Eigen::Lower>().solveInPlace(segment);
  }
  return b;
}

void PathConditioning::append(const Points& points, const Eigen::MatrixXd& ell,
                              const Eigen::MatrixXd& q, const Eigen::MatrixXd& factor,
                              const std::vector<Eigen::Index>& order, Eigen::Index rank,
                              const Eigen::VectorXd& zeta) {
  const Eigen::Index before = this->rank();
  Block block;
  block.basis_before = before;
  block.rows.resize(rank, before + rank);
  for (Eigen::Index t = 0; t < rank; ++t) {
    const Eigen::Index p = order[static_cast<std::size_t>(t)];
    if (before > 0) block.rows.row(t).head(before) = ell.col(p).transpose();
    block.rows.row(t).segment(before, rank) = factor.row(p).head(rank);
    for (Eigen::Index a = 0; a < points.cols(); ++a) basis_.push_back(points(p, a));
    for (Eigen::Index i = 0; i < q.rows(); ++i) q_.push_back(q(i, p));
    alpha_.push_back(zeta[t]);
  }
  answered_ += points.rows();
  block.answered_after = answered_;
  blocks_.push_back(std::move(block));
}

void PathConditioning::rebuild(const Posterior& posterior, double eta, const Points& points,
                               const Eigen::VectorXd& values) {
  blocks_.clear();
  basis_.clear();
  q_.clear();
  alpha_.clear();
  answered_ = 0;
  dim_ = posterior.dim();
  n_ = posterior.n();
  const Eigen::Index k = points.rows();
  if (k == 0) return;
  const auto kd = static_cast<double>(k), n = static_cast<double>(posterior.n());
  require_memory(posterior.pending_factor_bytes() + static_cast<double>(dense_bytes(kd, kd, 3)) +
                     static_cast<double>(dense_bytes(n, kd, 2)) + bytes_for(kd, n),
                 fmt::format("lazy path: factorising the covariance of its {} answered point(s) "
                             "with n = {}",
                             k, posterior.n()),
                 "the k x k covariance, its factor and the n x k cross terms", kAlternatives);
  const Eigen::MatrixXd q = data_solve(posterior, points);
  const double eta2 = eta * eta, s2 = posterior.sigma() * posterior.sigma();
  const PsdFactor f =
      factor_psd(path_covariance(posterior, eta, posterior.kernel().gram(points), q, q), s2 + eta2);
  // α = L⁻¹ (f(B) − μ_D(B)) on the pivots, by the same block solve as later batches.
  const Eigen::VectorXd resid = values - posterior.mean(points);
  Eigen::VectorXd zeta(f.rank);
  for (Eigen::Index t = 0; t < f.rank; ++t) zeta[t] = resid[f.order[static_cast<std::size_t>(t)]];
  Eigen::MatrixXd pivots(f.rank, f.rank);
  for (Eigen::Index t = 0; t < f.rank; ++t)
    pivots.row(t) = f.factor.row(f.order[static_cast<std::size_t>(t)]).head(f.rank);
  pivots.triangularView<Eigen::Lower>().solveInPlace(zeta);
  append(points, Eigen::MatrixXd(0, k), q, f.factor, f.order, f.rank, zeta);
  detail_ = fmt::format("conditioning rebuilt on {} answered point(s): {}", k, f.detail);
}

Eigen::VectorXd PathConditioning::extend(const Posterior& posterior, double eta,
                                         const Points& fresh, Rng& rng) {
  require(answered_ == 0 || (dim_ == posterior.dim() && n_ == posterior.n()),
          "lazy path: conditioning state of another posterior");
  dim_ = posterior.dim();
  n_ = posterior.n();
  const Eigen::Index k = rank(), m = fresh.rows();
  const auto kd = static_cast<double>(k), md = static_cast<double>(m),
             n = static_cast<double>(posterior.n());
  require_memory(posterior.pending_factor_bytes() + static_cast<double>(dense_bytes(md, kd + md)) +
                     static_cast<double>(dense_bytes(kd, md, 3)) +
                     static_cast<double>(dense_bytes(n, md, 2)) +
                     static_cast<double>(dense_bytes(md, md, 3)) + 16.0 * (n + 3.0) * md,
                 fmt::format("lazy path: conditioning {} new point(s) on {} answered one(s) with "
                             "n = {}",
                             m, answered_, posterior.n()),
                 "the new rows of the factor and the k x m cross-covariances", kAlternatives);
  const Eigen::MatrixXd q = data_solve(posterior, fresh);
  const Eigen::Map<const Eigen::MatrixXd> qb(q_.data(), q.rows(), k);
  const Eigen::MatrixXd ell = forward_substitute(path_covariance(
      posterior, eta, posterior.kernel().cross(basis_points(posterior.dim()), fresh), qb, q));
  Eigen::MatrixXd d = path_covariance(posterior, eta, posterior.kernel().gram(fresh), q, q);
  const double scale = d.diagonal().maxCoeff();
  d.noalias() -= ell.transpose() * ell;
  Eigen::VectorXd mean = posterior.mean(fresh);
  mean.noalias() += ell.transpose() * Eigen::Map<const Eigen::VectorXd>(alpha_.data(), k);
  // The conditional covariance is formed by cancellation: its tolerance is referred to the
  // unconditional scale.
  const PsdFactor f = factor_psd(std::move(d), scale);
  Eigen::VectorXd zeta(f.rank);
  rng.fill_standard_normal(zeta.data(), static_cast<std::size_t>(zeta.size()));
  Eigen::VectorXd values = mean;
  if (f.rank > 0) values.noalias() += f.factor.leftCols(f.rank) * zeta;
  const Eigen::Index before = answered_;
  append(fresh, ell, q, f.factor, f.order, f.rank, zeta);
  detail_ = fmt::format(
      "dense conditional on {} answered point(s) (incremental factor of rank {}, {} new row(s)); "
      "{}",
      before, k, f.rank, f.detail);
  return values;
}

bool PathConditioning::truncate(Eigen::Index answered) {
  if (answered == answered_) return true;
  if (answered > answered_) return false;
  std::size_t keep = blocks_.size();
  while (keep > 0 && blocks_[keep - 1].answered_after > answered) --keep;
  if ((keep == 0 ? 0 : blocks_[keep - 1].answered_after) != answered) return false;
  blocks_.resize(keep);
  const auto k = static_cast<std::size_t>(
      blocks_.empty() ? 0 : blocks_.back().basis_before + blocks_.back().rows.rows());
  basis_.resize(k * static_cast<std::size_t>(dim_));
  q_.resize(k * static_cast<std::size_t>(n_));
  alpha_.resize(k);
  answered_ = answered;
  return true;
}

}  // namespace gpdp
