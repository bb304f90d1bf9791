#include "gpdp/samplers/dense.hpp"

#include <fmt/format.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/factorisation.hpp"
#include "gpdp/memory.hpp"

namespace gpdp {

namespace {
// Distinct rows of xs (exact coordinate equality) and, for each row, its distinct representative:
// a point asked twice then gets the same value bit for bit.
struct Distinct {
  Points points;
  std::vector<Eigen::Index> of_row;
};
Distinct distinct_rows(const Points& xs) {
  std::map<std::vector<double>, Eigen::Index> seen;
  Distinct d;
  d.of_row.resize(static_cast<std::size_t>(xs.rows()));
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = 0; i < xs.rows(); ++i) {
    std::vector<double> key(static_cast<std::size_t>(xs.cols()));
    for (Eigen::Index j = 0; j < xs.cols(); ++j) key[static_cast<std::size_t>(j)] = xs(i, j) + 0.0;
    const auto [it, inserted] =
        seen.emplace(std::move(key), static_cast<Eigen::Index>(keep.size()));
    if (inserted) keep.push_back(i);
    d.of_row[static_cast<std::size_t>(i)] = it->second;
  }
  d.points.resize(static_cast<Eigen::Index>(keep.size()), xs.cols());
  for (std::size_t k = 0; k < keep.size(); ++k)
    d.points.row(static_cast<Eigen::Index>(k)) = xs.row(keep[k]);
  return d;
}
}  // namespace

PsdFactor factor_psd(Eigen::MatrixXd c, double reference_scale) {
  const Eigen::Index m = c.rows();
  require(c.cols() == m, "factor_psd: matrix is not square");
  PsdFactor out;
  out.order.resize(static_cast<std::size_t>(m));
  std::iota(out.order.begin(), out.order.end(), Eigen::Index{0});
  if (m == 0) {
    out.full_rank = true;
    out.detail = "empty";
    return out;
  }
  require(c.allFinite(), "factor_psd: covariance contains NaN or Inf");
  const double max_diag = c.diagonal().maxCoeff();
  const double scale = std::max(max_diag, reference_scale);
  const double tol = static_cast<double>(m) * std::numeric_limits<double>::epsilon() * scale;
  if (max_diag <= tol) {  // zero up to rounding (e.g. every point already known exactly)
    if (max_diag < -1e3 * tol || c.cwiseAbs().maxCoeff() > 1e3 * tol) {
      throw NumericalError("factor_psd: covariance has a non-positive diagonal and is not PSD");
    }
    out.factor = Eigen::MatrixXd::Zero(m, 0);
    out.detail = fmt::format(
        "rank 0 of {}: the covariance is 0 up to {:.3g} (the draw is the mean)", m, tol);
    return out;
  }
  const auto md = static_cast<double>(m);
  require_memory(static_cast<double>(dense_bytes(md, md)),
                 fmt::format("factorising an m x m covariance at m = {}", m),
                 "a copy of the matrix for its Cholesky factor");

  Eigen::MatrixXd l = c;
  const int info = cholesky_lower(l);
  if (info == 0) {
    const double min_pivot2 = l.diagonal().array().square().minCoeff();
    if (min_pivot2 > tol) {
      l.triangularView<Eigen::StrictlyUpper>().setZero();
      out.factor = std::move(l);
      out.rank = m;
      out.full_rank = true;
      out.detail = fmt::format(
          "Cholesky ({}), full rank {}",
          factor_device() == FactorDevice::Gpu ? "cuSOLVER potrf on the GPU" : "LAPACK dpotrf", m);
      return out;
    }
  } else if (info < 0) {
    throw NumericalError(fmt::format("Cholesky factorisation: illegal argument {}", -info));
  }
  l.resize(0, 0);

  // Rank-revealing pivoted Cholesky: Pᵀ C P = L Lᵀ + S with S PSD and diag(S) < tol.
  const Eigen::VectorXd diag = c.diagonal();
  const auto n = static_cast<lapack_int>(m);
  std::vector<lapack_int> piv(static_cast<std::size_t>(m));
  lapack_int rank = 0;
  const lapack_int pinfo =
      LAPACKE_dpstrf(LAPACK_COL_MAJOR, 'L', n, c.data(), n, piv.data(), &rank, tol);
  if (pinfo < 0) throw NumericalError(fmt::format("LAPACKE_dpstrf: illegal argument {}", -pinfo));
  out.rank = rank;
  out.factor = Eigen::MatrixXd::Zero(m, rank);
  for (Eigen::Index i = 0; i < m; ++i) {
    const Eigen::Index row = piv[static_cast<std::size_t>(i)] - 1;
    out.order[static_cast<std::size_t>(i)] = row;
    const Eigen::Index cols = std::min<Eigen::Index>(i + 1, rank);
    out.factor.row(row).head(cols) = c.row(i).head(cols);
  }
  // The dropped Schur complement S has diag(S) = diag(C) − diag(F Fᵀ); for a PSD C it lies in
  // [0, tol) up to rounding. A clearly negative entry means C was not PSD (a bug upstream).
  const double worst = (diag - out.factor.rowwise().squaredNorm()).minCoeff();
  if (worst < -1e3 * tol) {
    throw NumericalError(fmt::format(
        "factor_psd: covariance is not positive semidefinite (residual diagonal {:.3g})", worst));
  }
  out.full_rank = false;
  out.detail = fmt::format(
      "pivoted Cholesky (LAPACK dpstrf): rank {} of {}, Schur pivots below {:.3g} (m·ε·{:.3g}) "
      "treated as 0",
      rank, m, tol, scale);
  return out;
}

Eigen::MatrixXd draw_gaussian(const Eigen::VectorXd& mean, const PsdFactor& f, int draws,
                              Rng& rng) {
  require(draws >= 0, "the number of draws must be ≥ 0");
  const Eigen::Index m = mean.size();
  Eigen::MatrixXd z(f.rank, draws);
  rng.fill_standard_normal(z.data(), static_cast<std::size_t>(z.size()));
  Eigen::MatrixXd out(m, draws);
  if (f.rank == 0) {
    out.setZero();
  } else if (f.full_rank) {
    out.noalias() = f.factor.triangularView<Eigen::Lower>() * z;
  } else {
    out.noalias() = f.factor * z;
  }
  out.colwise() += mean;
  return out;
}

DenseSampler::DenseSampler(const Posterior& posterior, const Points& xs, double eta) : eta_(eta) {
  require(xs.cols() == posterior.dim(),
          fmt::format("dense sampler: query points have {} columns, the data {}", xs.cols(),
                      posterior.dim()));
  require(std::isfinite(eta) && eta >= 0, fmt::format("η must be ≥ 0, got {}", eta));
  // Peak: the pending n x n factorisation, the posterior covariance (two n x m blocks and the
  // m x m matrix), its factor (and η² K), one draw (three m x 1 blocks).
  const auto m = static_cast<double>(xs.rows()), n = static_cast<double>(posterior.n());
  require_memory(
      posterior.pending_factor_bytes() + static_cast<double>(dense_bytes(n, m, 2)) +
          static_cast<double>(dense_bytes(m, m, eta > 0 ? 3 : 2)) +
          static_cast<double>(dense_bytes(m, 1, 3)),
      fmt::format("a dense draw at m = {} point(s) with n = {}", xs.rows(), posterior.n()),
      "the m x m posterior covariance and its factor, n x m cross-covariances",
      "the markov (1-D exponential kernel) or pathwise (regular grid) sampler, a "
      "coarser grid, fewer points, or records aggregated first (hexbin)");
  Distinct u = distinct_rows(xs);
  distinct_ = std::move(u.points);
  of_row_ = std::move(u.of_row);
  Eigen::MatrixXd c = posterior.covariance(distinct_);
  if (eta > 0) c += eta * eta * posterior.kernel().gram(distinct_);
  factor_ = factor_psd(std::move(c));
}

Draws DenseSampler::draw(const Posterior& posterior, int draws, Rng& rng) const {
  const auto m = static_cast<double>(of_row_.size());
  require_memory(static_cast<double>(dense_bytes(m, draws, 3)),
                 fmt::format("{} dense draw(s) at m = {} point(s)", draws, of_row_.size()),
                 "the draws");
  const Eigen::MatrixXd values = draw_gaussian(posterior.mean(distinct_), factor_, draws, rng);
  const auto rows = static_cast<Eigen::Index>(of_row_.size());
  Draws d;
  if (distinct_.rows() == rows) {
    d.values = values;
  } else {
    d.values.resize(rows, draws);
    for (Eigen::Index i = 0; i < rows; ++i) {
      d.values.row(i) = values.row(of_row_[static_cast<std::size_t>(i)]);
    }
  }
  d.method = "dense";
  d.detail = factor_.detail;
  if (distinct_.rows() < rows) {
    d.detail +=
        fmt::format("; {} points, {} distinct (repeats share the value)", rows, distinct_.rows());
  }
  if (eta_ > 0) d.detail += fmt::format("; covariance σ² k_D + η² k with η = {}", eta_);
  return d;
}

Draws sample_dense(const Posterior& posterior, const Points& xs, int draws, Rng& rng, double eta) {
  return DenseSampler(posterior, xs, eta).draw(posterior, draws, rng);
}

}  // namespace gpdp
