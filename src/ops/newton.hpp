#pragma once
// Damped Newton's method for smooth, strongly convex objectives (regularised logistic ERM, the
// mode of a tempered posterior). Converges to the exact minimiser up to the gradient tolerance,
// which objective perturbation requires (CMS 2011: the guarantee holds for the exact argmin).
#include <Eigen/Core>
#include <functional>

namespace gpdp::ops {

// Returns f(x); fills *grad and *hess when non-null.
using SmoothObjective =
    std::function<double(const Eigen::VectorXd& x, Eigen::VectorXd* grad, Eigen::MatrixXd* hess)>;

struct NewtonResult {
  Eigen::VectorXd x;
  double value = 0.0;
  double gradient_norm = 0.0;
  int iterations = 0;
};

// Newton steps solved by LDLT, backtracking (Armijo) line search; stops when ‖∇f‖ ≤ grad_tol.
// Throws NumericalError if the tolerance is not reached in max_iterations.
NewtonResult newton_minimize(const SmoothObjective& f, Eigen::VectorXd x0, double grad_tol = 1e-10,
                             int max_iterations = 200);

}  // namespace gpdp::ops
