#pragma once
// Hamiltonian Monte Carlo on the ball ‖θ‖ ≤ R for a TemperedPosterior.
//
// Boundary handling: the target is −∞ outside the ball. Positions move by a reflective drift: a
// trajectory that meets the sphere ‖θ‖ = R bounces off it specularly (in the whitened coordinates
// that define the kinetic energy). That map is reversible and volume-preserving (Afshar & Domke
// 2015, "Reflection, refraction, and Hamiltonian Monte Carlo"), so the Metropolis–Hastings
// correction with the smooth potential keeps the restricted target exactly invariant; an end
// point outside the ball (possible only by rounding) is rejected. Reflection mixes far better
// than plain rejection when the mass sits at the wall (small ε, small R).
//
// Preconditioning: the mass matrix is a Laplace approximation of the restricted target at its mode
// (boundary_metric), i.e. the chain runs in whitened coordinates u with θ = m + U⁻¹u, A = UᵀU. This
// metric depends on the data, which does not affect privacy: only the final state is released and
// the chain's invariant law is the tempered posterior whatever the metric.
#include <Eigen/Core>
#include <vector>

#include "gpdp/ops/diagnostics.hpp"
#include "gpdp/ops/tempered_posterior.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::ops {

struct HmcOptions {
  int chains = 4;
  int warmup = 200;   // adaptation iterations per chain (discarded)
  int samples = 200;  // kept iterations per chain (for diagnostics)
  // Trajectory: integration time T = integration_time × U(0.6, 1.4) in whitened units, covered by
  // ⌈T/ε⌉ ≤ leapfrog_steps steps. The default 3 is close to π, half a period of the standard
  // Gaussian the whitened target resembles (successive draws nearly antithetic); randomised so
  // that no fixed length resonates (a fixed ≈ 2π returns the chain to where it started).
  double integration_time = 3.0;
  int leapfrog_steps = 8;  // at most this many gradient steps per iteration
  double target_accept = 0.8;
  bool precondition = true;  // false: identity mass matrix
};

struct HmcRun {
  std::vector<Eigen::MatrixXd> draws;        // per chain, samples × d
  std::vector<Eigen::VectorXd> final_state;  // per chain
  std::vector<double> accept_rate;           // per chain, after warm-up
  std::vector<double> step_size;             // per chain, adapted
  ChainDiagnostics diagnostics;  // R̂ / ESS over chains (single chain: R̂ = split-R̂)
};

// The mass matrix (see above): the precision at an interior mode, or at a mode on the sphere the
// Lagrangian's tangential Hessian plus a radial precision matching the inward slope.
Eigen::MatrixXd boundary_metric(const TemperedPosterior& target,
                                const TemperedPosterior::Mode& mode);

// Runs options.chains chains one after another from overdispersed starts around the mode.
HmcRun hmc_sample(const TemperedPosterior& target, const HmcOptions& options, Rng& rng);

}  // namespace gpdp::ops
