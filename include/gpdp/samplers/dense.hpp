#pragma once
// Dense exact sampler (docs/mathematics.md §3): factorise the m x m covariance of the released path
// on the requested points and draw mean + F z. Singular / near-singular PSD covariances (query
// points equal to training points, duplicate query points, very fine grids) are handled by a
// rank-revealing pivoted Cholesky (LAPACK dpstrf) — never by silent jitter; the tolerance used is
// reported.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp {

// F (m x rank) with F Fᵀ = C up to rounding, and up to the reported tolerance when rank < m.
struct PsdFactor {
  Eigen::MatrixXd factor;  // m x m lower triangular when full_rank, else m x rank (rows permuted)
  Eigen::Index rank = 0;
  bool full_rank = false;
  std::string detail;  // which factorisation, rank, tolerance
  // The points in pivot order (0, 1, .., m − 1 unless pivoted): the rows order[0..rank) of
  // `factor` form a lower triangular rank x rank matrix with a nonzero diagonal; the others are
  // determined by them (their Schur pivot was below the tolerance).
  std::vector<Eigen::Index> order;
};

// Factorises a symmetric PSD matrix (only its lower triangle is read). First LAPACK dpotrf
// (OpenBLAS, blocked and multithreaded; cuSOLVER potrf when the GPU is selected,
// gpdp/factorisation.hpp); if it fails or a pivot² falls below
// tol = m · ε · max_i C_ii, the matrix is treated as singular and factorised by pivoted Cholesky
// (dpstrf) with that tolerance: Schur-complement pivots below tol are treated as 0 (the dropped
// part is PSD with diagonal < tol). A matrix with a clearly negative pivot is a NumericalError.
// `reference_scale` > max_i C_ii replaces max_i C_ii in tol when C was computed by cancellation
// from matrices of that scale (a conditional covariance D − Bᵀ A⁺ B): its rounding is at that
// level.
PsdFactor factor_psd(Eigen::MatrixXd covariance, double reference_scale = 0.0);

// mean + F z with z ~ N(0, I_rank): `draws` columns (consumes rank · draws normals in column
// order).
Eigen::MatrixXd draw_gaussian(const Eigen::VectorXd& mean, const PsdFactor& f, int draws, Rng& rng);

// The dense sampler prepared on fixed points xs: the covariance σ² k_D + η² k of the released
// path on the distinct points of xs, factorised once (factor_psd). It depends on the kernel, the
// covariates and θ only, never on the responses, so each draw takes the mean μ_D of the posterior
// it is given: the prepared one, or one with the same kernel, covariates and θ but other responses.
class DenseSampler {
 public:
  DenseSampler(const Posterior& posterior, const Points& xs, double eta);
  // `draws` exact draws of N(μ_D, σ² k_D + η² k) on xs (rows as in xs; repeated points share the
  // value), μ_D from `posterior`. Consumes rank · draws normals in column order.
  Draws draw(const Posterior& posterior, int draws, Rng& rng) const;

 private:
  Points distinct_;                   // the distinct rows of xs
  std::vector<Eigen::Index> of_row_;  // for each row of xs, its row in distinct_
  PsdFactor factor_;
  double eta_ = 0.0;
};

// Exact draws of f_D + g ~ N(μ_D, σ² k_D + η² k) on xs by factor_psd of that covariance
// (one DenseSampler's draw).
Draws sample_dense(const Posterior& posterior, const Points& xs, int draws, Rng& rng, double eta);

}  // namespace gpdp
