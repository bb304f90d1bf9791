#pragma once
// The auditor: an empirical LOWER bound on the privacy loss of a concrete GP mechanism, to set
// beside the proven upper bound. It searches replace-one neighbours D ~ D' (covariates in the
// declared box, |y| ≤ M_Y, or y = f*(x) with ‖f*‖_H ≤ B for Lemma B.8) and test sets X_T that
// contain the differing points, maximising the EXACT Rényi divergence
//   D_α( N(μ_D(X_T), σ² k_D + η² K) ‖ N(μ_D'(X_T), σ² k_D' + η² K) )
// by seeded random restarts + NLopt's derivative-free Subplex. For the functional mechanism
// (m.kind = Functional) the divergence maximised is that of the whole released process,
// α ‖μ_D − μ_D'‖²_H / (2 s²) (audit_functional.hpp), and every pair is an exact Gaussian mechanism.
// Any value above the proven ε_α is a VIOLATION of the bound (or of the assumptions behind a
// user-supplied V_n / Δ_n). It uses Kernel and Posterior of concrete datasets; it certifies
// nothing.
#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpdp/kernel.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::privacy {

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

struct AuditSettings {
  std::vector<double> alphas;  // orders to audit; empty = spread over the admissible range + α*
  int restarts = 12;           // random restarts per order and per search mode
  int max_evals = 300;         // objective evaluations per local search
  int extra_test_points = 2;   // test points besides the differing points
  std::uint64_t seed = 1;      // the search is seeded (an experiment, not a release)
  double delta = 1e-5;
  long draws = 1;
  Conversion conversion = Conversion::Mironov;
};

struct AuditOrder {
  double alpha = 0.0;
  double proven = 0.0;  // proven ε_α of ONE draw (Theorem 3.1 / Prop. 2 with the given V_n, Δ_n)
  double lower = 0.0;   // best exact D_α found (one draw); L draws: both scale by L exactly
  bool violation = false;
  NeighbourPair witness;
};

struct AuditReport {
  std::vector<AuditOrder> orders;
  long draws = 1;
  Guarantee proven;  // proven ε(δ) of L draws
  double epsilon_lower =
      0.0;  // exact ε(δ) of the best same-covariate pair, L draws (a lower bound)
  double mean_distance = 0.0;  // that pair's Mahalanobis distance (one draw)
  NeighbourPair distance_witness;
  long evaluations = 0;
  long singular_skipped = 0;  // ill-posed (NaN) or +∞ candidates, not counted as findings
  bool violation = false;
  std::string rng;  // "seeded ... (NOT private)"
};

// Needs m.kernel and a finite σ (InputError otherwise). progress(msg) is called per order.
AuditReport audit(const GpMechanism& m, const AuditSettings& s,
                  const std::function<void(const std::string&)>& progress = {});

}  // namespace gpdp::privacy
