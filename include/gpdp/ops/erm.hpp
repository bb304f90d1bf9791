#pragma once
// Regularised logistic ERM and the two classical private baselines of Chaudhuri, Monteleoni &
// Sarwate (JMLR 2011): output perturbation (Algorithm 1) and objective perturbation (Algorithm 2).
// Both assume ‖x_i‖ ≤ 1 and need the exact minimiser, found here by Newton's method to
// ‖∇J‖ ≤ 1e-10 (a smooth, strongly convex problem).
#include <Eigen/Core>

#include "gpdp/ops/calibration.hpp"
#include "gpdp/ops/logistic.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::ops {

// argmin_f (1/n)Σ log(1 + e^{−z_iᵀf}) + ((Λ + extra_ridge)/2)‖f‖² + (1/n) bᵀf   (b may be empty).
Eigen::VectorXd regularised_logistic_erm(const LogisticModel& model, double lambda,
                                         const Eigen::VectorXd& b = Eigen::VectorXd(),
                                         double extra_ridge = 0.0);

// b ∈ R^d with density ∝ exp(−‖b‖/scale): ‖b‖ ~ Gamma(d, scale) (a sum of d exponentials),
// direction uniform on the sphere.
Eigen::VectorXd gamma_norm_noise(Rng& rng, Eigen::Index d, double scale);

struct PrivateEstimate {
  Eigen::VectorXd theta;
  Guarantee guarantee;
  double noise_norm = 0.0;  // ‖b‖ (diagnostic; never released with θ)
};

// CMS 2011 Algorithm 2 (c = 1/4 for the logistic loss): ε-DP.
PrivateEstimate objective_perturbation(const LogisticModel& model, double epsilon, double lambda,
                                       Rng& rng);
// CMS 2011 Algorithm 1: f* + b, ‖b‖ ~ Gamma(d, 2/(nΛε)): ε-DP.
PrivateEstimate output_perturbation(const LogisticModel& model, double epsilon, double lambda,
                                    Rng& rng);

}  // namespace gpdp::ops
