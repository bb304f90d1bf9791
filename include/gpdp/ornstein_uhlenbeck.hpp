#pragma once
// The 1-D exponential kernel exp(−|x − x'|/ℓ) is the covariance of a stationary Ornstein–Uhlenbeck
// process, so K⁻¹ is tridiagonal (Lemma B.6) and f is a Gauss–Markov chain along the sorted points:
//   f(t_{k+1}) = a f(t_k) + w,  a = exp(−Δ/ℓ),  w ~ N(0, σ² (1 − a²)).
// Kalman filtering, Rauch–Tung–Striebel smoothing and forward-filter backward-sampling over the
// merged sorted set of training and query points give the posterior mean, variance and EXACT joint
// draws in O(n + m) time and memory (plus the sort of the query points when they are not sorted).
// Ties (duplicate covariates, query points equal to training points) are zero-distance steps:
// they share one state, observations at one position are combined exactly.
// Part of the core: Posterior (posterior.hpp) answers with it for that kernel; the markov sampler
// (samplers/markov.hpp) draws with it.
#include <Eigen/Core>
#include <vector>

#include "gpdp/rng.hpp"

namespace gpdp {

class OrnsteinUhlenbeckPosterior {
 public:
  // Data (x_i, y_i), prior GP(0, σ² k), noise N(0, σ² r²). Everything below that is a variance is
  // returned for σ = 1 (k_D, not σ² k_D) unless it takes σ.
  OrnsteinUhlenbeckPosterior(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double ell,
                             double r);

  double lengthscale() const { return ell_; }
  double r() const { return r_; }

  // μ_D(x) and k_D(x, x) at arbitrary points (any order), O(log n) each.
  void mean_and_variance(const Eigen::VectorXd& xs, Eigen::VectorXd* mean,
                         Eigen::VectorXd* kd) const;
  // (K + r² I)⁻¹ y = (y − μ_D(X)) / r², O(n).
  const Eigen::VectorXd& weights() const { return weights_; }
  // d_eff = tr(K (K + r² I)⁻¹) = Σ_i k_D(x_i, x_i) / r², O(n) (k_D(X, X) = r² K (K + r² I)⁻¹).
  double effective_dimension() const { return effective_dimension_; }

  // `draws` exact joint draws of f_D ~ GP(μ_D, σ² k_D) at xs (m x draws), conditioned in addition
  // on f_D(fixed_x) = fixed_values exactly (pass empty vectors for none). Values of f_D at a query
  // point equal to a fixed point are the fixed value.
  Eigen::MatrixXd sample(const Eigen::VectorXd& xs, int draws, Rng& rng, double sigma,
                         const Eigen::VectorXd& fixed_x = {},
                         const Eigen::VectorXd& fixed_values = {}) const;

 private:
  double ell_;
  double r_;
  // Distinct sorted training positions with their combined observation: mean of the responses
  // there and noise variance r² / count (exactly equivalent to the count separate observations).
  std::vector<double> t_, ybar_, noise_;
  std::vector<double> mf_, pf_;  // filtered mean / variance (σ = 1) at t_k
  std::vector<double> ms_, ps_;  // smoothed (= posterior) mean / variance at t_k
  Eigen::VectorXd weights_;
  double effective_dimension_ = 0.0;
};

// One exact draw of a stationary OU process with covariance η² exp(−|x − x'|/ℓ) at xs (any order,
// duplicates allowed), O(m) after sorting; added to `out` column-wise for `draws` columns.
void add_ou_prior_draws(const Eigen::VectorXd& xs, double ell, double eta, Rng& rng,
                        Eigen::MatrixXd& out);

}  // namespace gpdp
