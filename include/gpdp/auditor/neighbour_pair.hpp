#pragma once
// A concrete pair of replace-one neighbours D ~ D' with a test set, and the EXACT quantities the
// auditor measures on it (oracles beside the proven bounds; they certify nothing):
//   D_α(Π_D(X_T) ‖ Π_D'(X_T))      the Rényi divergence of one released draw on X_T,
//   ‖μ_D − μ_D'‖_{H−}              the common-core mean sensitivity that Lemmas B.1–B.8 bound,
// and a short description of the pair's shape (where the differing points sit, how the responses
// are signed) for reports.
#include <Eigen/Core>
#include <string>

#include "gpdp/domain.hpp"
#include "gpdp/kernel.hpp"

namespace gpdp::auditor {

// Two replace-one neighbours (rows 0..n−2 shared, row n−1 differs) and a test set.
struct NeighbourPair {
  Points X, Xp;
  Eigen::VectorXd y, yp;
  Points test;
};

// Exact D_α(Π_D(X_T) ‖ Π_D'(X_T)) of one draw (+∞ if the supports differ), or NaN when either
// covariance is numerically ill-posed (see well_conditioned): such a pair proves nothing. σ finite.
double pair_renyi_divergence(const Kernel& kernel, double r, double sigma, double eta,
                             const NeighbourPair& pair, double alpha);
// √(δᵀ Σ† δ) for δ = μ_D − μ_D' on X_T and Σ = σ² k_D + η² K: when X = X' the two releases share Σ
// and this is the distance of an exact Gaussian mechanism (Balle & Wang 2018).
double pair_mean_distance(const Kernel& kernel, double r, double sigma, double eta,
                          const NeighbourPair& pair);
// Exact ‖μ_D − μ_D'‖_{H−} in the RKHS of the common-core posterior kernel k_{D−} (Definition 3.1,
// σ = 1), the quantity every Δ_n lemma bounds. μ_D − μ_D' lies in span{k_{D−}(·,x), k_{D−}(·,x')}
// (one-step update, paper eq. 9), so the norm is δᵀ K_{D−}(T,T)† δ on T = {x, x'} exactly.
// NaN when that 2 x 2 matrix is ill-resolved (x, x' nearly but not exactly equal).
double pair_sensitivity(const Kernel& kernel, double r, const NeighbourPair& pair);

// What a witness looks like, from the common-core posterior (σ = 1): its differing points x, x'
// have posterior variances v, v' and correlation c/√(vv'), core means μ_{D−}(x), μ_{D−}(x') and
// residuals y − μ_{D−}(x), y' − μ_{D−}(x') (the one-step update coefficients times r² + v).
struct PairShape {
  long n = 0;
  double v = 0, vp = 0, correlation = 0;
  double core_mean_x = 0, core_mean_xp = 0;
  double residual_x = 0, residual_xp = 0;
  double sensitivity = 0;        // pair_sensitivity
  double distance_x_xp = 0;      // ‖x − x'‖
  double nearest_core_x = 0;     // distance from x to the nearest core point (∞ when n = 1)
  double core_near_x = 0;        // fraction of core points within ℓ/10 (of x or of x')
  double core_at_bound = 0;      // fraction of core responses with |y_i| ≥ 0.99 M_Y
  double core_sign_balance = 0;  // (#positive − #negative) / (n − 1) over those
  double on_boundary = 0;        // fraction of all covariates on a face of the domain box
  std::string summary;           // one line for humans
};
PairShape pair_shape(const Kernel& kernel, double r, double M_Y, const Box& domain,
                     const NeighbourPair& pair);

}  // namespace gpdp::auditor
