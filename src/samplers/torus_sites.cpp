#include "gpdp/samplers/torus_sites.hpp"

#include <cblas.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/parallel.hpp"

namespace gpdp {

namespace {
// C^½ C^{-½} U must give back U to FFT rounding (~1e-15 here: |U| ≤ 1); beyond this something is
// wrong with the embedding's conditioning and the joint law is not claimed.
constexpr double kMaxResidual = 1e-10;
}  // namespace

double TorusSites::bytes_needed(long torus_points, Eigen::Index sites) {
  const auto m = static_cast<double>(torus_points), n = static_cast<double>(sites);
  // W, then K_XX − WᵀW, its copy and its factor; per thread two torus vectors and an FFT buffer.
  return static_cast<double>(dense_bytes(m, n)) + static_cast<double>(dense_bytes(n, n, 3)) +
         static_cast<double>(dense_bytes(m, 4.0 * resolve_threads(0)));
}

double TorusSites::setup_flops(long torus_points, Eigen::Index sites) {
  const auto m = static_cast<double>(torus_points), n = static_cast<double>(sites);
  const double fft = 2.5 * m * std::log2(std::max(m, 2.0));  // one real FFT of the torus
  // Per point: its covariances with the torus (~30 flops each) and two FFT pairs; then WᵀW (dsyrk:
  // n² M) and the n x n factorisation.
  return n * (4.0 * fft + 30.0 * m) + n * n * m + n * n * n / 3.0;
}

TorusSites::TorusSites(const CirculantEmbedding& embedding, const Points& sites,
                       const Kernel& kernel, int threads) {
  require(embedding.positive_definite(),
          "off-lattice points: the embedding must be positive definite (" +
              embedding.attempt().describe() + ")");
  const Lattice& lattice = embedding.lattice();
  const int dim = lattice.dim();
  require(sites.cols() == dim,
          fmt::format("off-lattice points: {} coordinates for a {}-D lattice", sites.cols(), dim));
  for (Eigen::Index i = 0; i < sites.rows(); ++i) {
    for (int a = 0; a < dim; ++a) {
      const double span = static_cast<double>(lattice.counts[a] - 1) * lattice.steps[a];
      const double slack = 1e-9 * lattice.steps[a];
      require(sites(i, a) >= -slack && sites(i, a) <= span + slack,
              fmt::format("off-lattice point {} lies outside the lattice on axis {} ({} not in "
                          "[0, {}]): the embedding reproduces k only on the lattice's lags",
                          i + 1, a + 1, sites(i, a), span));
    }
  }
  const long m = embedding.torus_size();
  const Eigen::Index n = sites.rows();
  require_memory(bytes_needed(m, n),
                 fmt::format("conditioning {} off-lattice point(s) on a torus of {} nodes", n, m),
                 "W = C^{-½} U: one torus vector per point",
                 "fewer or aggregated records (hexbin), a coarser grid, covariates on the grid's "
                 "lattice, or the dense sampler");
  w_.resize(m, n);

  // W column by column, in parallel: U_i = c̃(· − x_i) on the torus, W_i = C^{-½} U_i, and the
  // check C^½ W_i = U_i.
  const int workers = static_cast<int>(std::min<Eigen::Index>(resolve_threads(threads), n));
  std::vector<double> worst(static_cast<std::size_t>(std::max(workers, 1)), 0.0);
  parallel_for(workers, workers, [&](long worker) {
    CirculantEmbedding::TorusWork work(embedding);
    std::vector<double> u(static_cast<std::size_t>(m)), back(static_cast<std::size_t>(m));
    double& residual = worst[static_cast<std::size_t>(worker)];
    for (Eigen::Index i = worker; i < n; i += workers) {
      embedding.periodic_covariances(sites(i, 0), dim > 1 ? sites(i, 1) : 0.0, u.data());
      double* wi = w_.col(i).data();
      embedding.torus_power(-0.5, u.data(), wi, work);
      embedding.torus_power(0.5, wi, back.data(), work);
      for (long t = 0; t < m; ++t) {
        residual = std::max(
            residual, std::abs(back[static_cast<std::size_t>(t)] - u[static_cast<std::size_t>(t)]));
      }
    }
  });
  residual_ = *std::max_element(worst.begin(), worst.end());
  if (!(residual_ <= kMaxResidual)) {
    reason_ = fmt::format(
        "the torus transforms do not reproduce the covariances of the off-lattice points "
        "(C^½ C^(-½) U − U up to {:.2e}, allowed {:.0e}): the embedding is too ill-conditioned",
        residual_, kMaxResidual);
    return;
  }

  // S = K_XX − WᵀW (dsyrk on the lower triangle, mirrored), then its pivoted factor.
  Eigen::MatrixXd s = kernel.gram(sites);
  cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, static_cast<blasint>(n),
              static_cast<blasint>(m), -1.0, w_.data(), static_cast<blasint>(m), 1.0, s.data(),
              static_cast<blasint>(n));
  s.triangularView<Eigen::StrictlyUpper>() = s.transpose();
  try {
    // S is formed by cancellation from K_XX (diagonal 1): its rounding is at that scale.
    schur_ = factor_psd(std::move(s), 1.0);
  } catch (const NumericalError& e) {
    reason_ = fmt::format(
        "the joint covariance of the torus and the off-lattice points is not positive "
        "semidefinite (the Schur complement K_XX − Uᵀ C⁻¹ U: {}): the embedding's periodic "
        "covariance is not a valid covariance off the lattice",
        e.what());
  }
}

Eigen::VectorXd TorusSites::draw(const double* white, Rng& rng) const {
  if (!reason_.empty()) throw NumericalError("off-lattice points: " + reason_);
  const Eigen::Map<const Eigen::VectorXd> zeta(white, w_.rows());
  const Eigen::VectorXd mean = w_.transpose() * zeta;
  return draw_gaussian(mean, schur_, 1, rng).col(0);
}

void TorusSites::add_cross(const Eigen::VectorXd& v, double* torus) const {
  Eigen::Map<Eigen::VectorXd>(torus, w_.rows()).noalias() += w_ * v;
}

std::string TorusSites::describe() const {
  return fmt::format(
      "{} off-lattice covariate(s) drawn from their exact law given the torus draw "
      "(Schur complement K_XX − Uᵀ C⁻¹ U: {}; C^½ W = U to {:.1e})",
      w_.cols(), schur_.detail, residual_);
}

}  // namespace gpdp
