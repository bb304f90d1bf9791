#pragma once
// The auditor's two objectives with their exact analytic gradients with respect to every number
// of a neighbour pair (covariates, responses, test points), for its gradient search:
//   D_α(N(μ_D(T), Σ_D) ‖ N(μ_D'(T), Σ_D')),   Σ = σ² k_D(T,T) + η² K(T,T)
//   ‖μ_D − μ_D'‖²_{H−} = δᵀ k_{D−}(S,S)⁻¹ δ,  δ = μ_D(S) − μ_D'(S), S = {x, x'} ({x} when x = x')
// Values are the same closed forms as the oracles in neighbour_pair.hpp, through Cholesky
// factors instead of eigen-decompositions (the search's reported values always come from the
// oracles). The gradient is reverse-mode: ∂/∂μ and ∂/∂Σ of the Gaussian formula, then through
// μ = K_TX (K_XX + r²I)⁻¹ y and Σ, then through k(‖a − b‖) by the kernel's radial derivative (the
// exponential kernel's cusp at coincident points contributes 0, a subgradient).
#include "gpdp/auditor/neighbour_pair.hpp"
#include "gpdp/kernel.hpp"

namespace gpdp::auditor {

// ∂f/∂(each field of a NeighbourPair), the same shapes; every field is treated as independent
// (the shared core rows of X and X' get separate entries: a search that ties them adds them up).
using PairGradient = NeighbourPair;

// D_α as above, filling *grad when given. NaN (grad untouched) when a covariance is not resolved
// by its Cholesky factor (condition estimate beyond 1e10) or Σ_α = αΣ_D' + (1−α)Σ_D is not
// positive definite.
double renyi_divergence_with_gradient(const Kernel& kernel, double r, double sigma, double eta,
                                      const NeighbourPair& pair, double alpha,
                                      PairGradient* grad = nullptr);

// ‖μ_D − μ_D'‖²_{H−} as above, filling *grad when given; NaN when k_{D−}(S,S) is ill-resolved.
double squared_sensitivity_with_gradient(const Kernel& kernel, double r, const NeighbourPair& pair,
                                         PairGradient* grad = nullptr);

}  // namespace gpdp::auditor
