#pragma once
// Exact divergences between two Gaussians: the oracle the auditor and the soundness tests compare
// the proven bounds against (never used to certify anything).
#include <Eigen/Core>

namespace gpdp::auditor {

// Rényi divergence of order α > 1 (Gil, Alajaji & Linder 2013; the paper's App. A):
//   D_α(N(μ1,Σ1) ‖ N(μ2,Σ2)) = α/2 δᵀ Σ_α⁻¹ δ − 1/(2(α−1)) log(det Σ_α / (det Σ1^{1−α} det Σ2^α)),
//   δ = μ1 − μ2, Σ_α = α Σ2 + (1−α) Σ1,
// computed through the generalised eigenvalues of (Σ2, Σ1). Singular covariances: on the common
// support (pseudo-inverse, pseudo-determinant); returns +∞ when the supports differ, when δ leaves
// the support, or when Σ_α is not positive definite. rank_tol is relative to the largest
// eigenvalue.
double gaussian_renyi_divergence(double alpha, const Eigen::VectorXd& mu1,
                                 const Eigen::MatrixXd& S1, const Eigen::VectorXd& mu2,
                                 const Eigen::MatrixXd& S2, double rank_tol = 1e-10);

// False when a covariance has eigenvalues in the "grey zone" (1e-12, 1e-7]·λ_max: neither clearly
// zero (a structural null direction) nor resolved to many digits. The divergence of such a pair is
// dominated by rounding, so oracles skip it instead of trusting it.
bool well_conditioned(const Eigen::MatrixXd& S);

// √(δᵀ Σ† δ) on the support of Σ (+∞ if δ leaves it): the distance of a Gaussian mechanism.
double mahalanobis_distance(const Eigen::VectorXd& delta, const Eigen::MatrixXd& S,
                            double rank_tol = 1e-10);

// Balle & Wang 2018 (analytic Gaussian mechanism, Thm 8): the exact privacy profile of N(0,1) vs
// N(d,1):  δ(ε) = Φ(d/2 − ε/d) − e^ε Φ(−d/2 − ε/d). For L draws use d·√L.
double analytic_gaussian_delta(double distance, double epsilon);
// Its inverse: the ε ≥ 0 with δ(ε) = delta, bisected to 1e-12 relative; the lower end is returned
// (the value serves as a lower bound on a mechanism's ε).
double analytic_gaussian_epsilon(double distance, double delta);

}  // namespace gpdp::auditor
