#pragma once
// Exact divergences of the functional Gaussian mechanism μ_D + s·g, g ~ GP(0, k), for concrete
// replace-one neighbours: the oracle the auditor and the soundness tests hold its privacy map
// α Δ_n² / (2 s²) against (rdp.hpp; derivation in docs/privacy.md, "The functional mechanism").
// Like the rest of the auditor these certify nothing.
#include "gpdp/auditor/audit.hpp"
#include "gpdp/kernel.hpp"

namespace gpdp::auditor {

// ‖μ_D − μ_D'‖_{H_k} exactly: with a = (K + r² I)⁻¹ y and a' likewise for D', the difference is
// h = Σ_j c_j k(·, z_j) over z = (rows of X, then the last row of X'), so ‖h‖² = cᵀ k(z, z) c.
double functional_rkhs_distance(const Kernel& kernel, double r, const NeighbourPair& pair);

// D_α of the whole released process: the two releases are Gaussian measures with the same
// covariance s² k whose means differ by h in the Cameron–Martin space, so
//   D_α = α ‖h‖²_{H_k} / (2 s²),
// the supremum over finite test sets of the divergence below.
double functional_process_divergence(const Kernel& kernel, double r, double noise_scale,
                                     const NeighbourPair& pair, double alpha);

// D_α(N(μ_D(X_T), s² K_T) ‖ N(μ_D'(X_T), s² K_T)) on the pair's test set X_T, by the generic
// Gaussian formula (gaussian_divergence.hpp); NaN when K_T is ill-resolved (well_conditioned).
double functional_pair_divergence(const Kernel& kernel, double r, double noise_scale,
                                  const NeighbourPair& pair, double alpha);

}  // namespace gpdp::auditor
