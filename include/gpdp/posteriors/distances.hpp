#pragma once
// Distances between a data set's covariates and to its evaluation points: every ℓ of an isotropic
// kernel (all gpdp kernels are functions of ‖x − x'‖) reuses them, so the distance-based
// multi-ridge engines (spectral, tridiagonal, ridge-Cholesky) share one object per data set.
#include <Eigen/Core>

#include "gpdp/kernel.hpp"

namespace gpdp {

struct PairwiseDistances {
  // ‖X_i − X_j‖ (n x n) and ‖xs_i − X_j‖ (m x n), formed coordinate by coordinate (no
  // ‖a‖² + ‖b‖² − 2a·b cancellation).
  PairwiseDistances(const Points& X, const Points& xs);
  // K = k(train) and K(xs, X) = k(cross), by Kernel::of_distances.
  void kernel_matrices(const Kernel& kernel, Eigen::MatrixXd& gram,
                       Eigen::MatrixXd& gram_cross) const;
  Eigen::Index n() const { return train.rows(); }
  // InputError unless y has one response per covariate and n ≥ 1 (`engine` names the caller).
  void check_responses(const Eigen::VectorXd& y, const char* engine) const;
  Eigen::MatrixXd train;  // n x n
  Eigen::MatrixXd cross;  // m x n
};

}  // namespace gpdp
