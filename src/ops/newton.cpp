#include "newton.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::ops {

NewtonResult newton_minimize(const SmoothObjective& f, Eigen::VectorXd x0, double grad_tol,
                             int max_iterations) {
  NewtonResult r;
  r.x = std::move(x0);
  Eigen::VectorXd g;
  Eigen::MatrixXd h;
  r.value = f(r.x, &g, &h);
  for (r.iterations = 0; r.iterations < max_iterations; ++r.iterations) {
    r.gradient_norm = g.norm();
    if (r.gradient_norm <= grad_tol) return r;
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(h);
    Eigen::VectorXd step = -ldlt.solve(g);
    double slope = g.dot(step);
    if (ldlt.info() != Eigen::Success || !(slope < 0)) {  // not a descent direction: gradient step
      step = -g;
      slope = -g.squaredNorm();
    }
    // Backtracking (Armijo). Near the optimum the objective changes at rounding level only, so a
    // step is also accepted when it halves the gradient norm without raising f beyond rounding.
    double t = 1.0;
    bool accepted = false;
    Eigen::VectorXd x_new, g_new;
    for (int k = 0; k < 60 && !accepted; ++k, t *= 0.5) {
      x_new = r.x + t * step;
      const double v_new = f(x_new, &g_new, nullptr);
      accepted = v_new <= r.value + 1e-4 * t * slope ||
                 (g_new.norm() < 0.5 * r.gradient_norm &&
                  v_new <= r.value + 1e-12 * (1.0 + std::abs(r.value)));
    }
    if (!accepted) {
      throw NumericalError(
          fmt::format("newton: line search failed at iteration {} (|grad| = {:.3g})", r.iterations,
                      r.gradient_norm));
    }
    r.x = x_new;
    r.value = f(r.x, &g, &h);
  }
  r.gradient_norm = g.norm();
  if (r.gradient_norm <= grad_tol) return r;
  throw NumericalError(fmt::format("newton: |grad| = {:.3g} > {:.3g} after {} iterations",
                                   r.gradient_norm, grad_tol, max_iterations));
}

}  // namespace gpdp::ops
