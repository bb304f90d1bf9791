#pragma once
// Utility metrics of the excursion-set experiments (paper §5, App. D; docs/mathematics.md §5).
// Integrals over the evaluation grid use the trapezoid rule (tensor product in 2-D): every metric
// takes the quadrature weights from trapezoid_weights() so that 1-D and 2-D share one code path.
#include <Eigen/Core>

#include "gpdp/grid.hpp"

namespace gpdp::experiments {

// Trapezoid weights of `grid` (point order as Grid::points()); they sum to the box volume.
Eigen::VectorXd trapezoid_weights(const Grid& grid);

// log Φ(z), accurate in both tails (no underflow to −∞ for very negative z).
double log_normal_cdf(double z);

// Integrated BCE ∫ ℓ_BCE(s*(x), p_D(x)) dx with p_D = Φ(z), z = (μ_D − t)/(σ √k_D), given z.
// Working from z (not p) keeps −log p finite where p underflows. truth(i) ∈ {0, 1}.
double integrated_bce_from_z(const Eigen::VectorXd& z, const Eigen::VectorXd& truth,
                             const Eigen::VectorXd& weights);
// The same from probabilities (p clamped to [1e-300, 1 − 1e-16]); for external p maps.
double integrated_bce(const Eigen::VectorXd& p, const Eigen::VectorXd& truth,
                      const Eigen::VectorXd& weights);

// IoU = ∫ a·b / ∫ max(a, b) for set indicators a, b ∈ {0,1}; 1 when both sets are empty.
double intersection_over_union(const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                               const Eigen::VectorXd& weights);

// 1{v ≥ t} elementwise, as 0/1 doubles.
Eigen::VectorXd indicator_at_least(const Eigen::VectorXd& v, double t);

}  // namespace gpdp::experiments
