#pragma once
// Pathwise conditioning (Matheron's rule) with an exact prior draw on a regular grid by circulant
// embedding (docs/mathematics.md §3). Owned by the grid-sampler work; the dispatcher in sampler.cpp
// calls it.
//
//   f_D(G) + g(G) = f(G) + k(G, X)(K + r² I)⁻¹ (y − f(X) − ε) + g(G),
//   f ~ GP(0, σ² k), ε ~ N(0, σ² r² I), g ~ GP(0, η² k), all independent,
// has exactly the law GP(μ_D, σ² k_D + η² k) on G. It needs the prior f JOINTLY on G and X. Both
// come from ONE circulant-embedding draw on a lattice that contains every grid point and every
// training covariate: the grid's own lattice, refined by an integer factor q ≤ max_refinement per
// axis and extended to cover X if needed. k(G, X)v is an FFT convolution on the same lattice.
// Exact (up to floating point) when:
//   * the grid is 1-D or 2-D with ≥ 2 points per axis, and the kernel is stationary (all gpdp
//     kernels are);
//   * every training covariate lies on that lattice (within lattice_tolerance fine steps; the
//     largest offset found is reported in Draws::detail);
//   * the chosen embedding is nonnegative definite: its smallest FFT eigenvalue ≥ −(rounding
//     tolerance ~ 16 ε log₂M ‖c‖₂); no eigenvalue is ever clipped beyond that.
// Otherwise pathwise_unavailable_reason says why and the dispatcher uses an exact dense method.
// Off-lattice covariates are refused: the joint prior of f at off-lattice points and the grid is
// not available from the lattice draw at this cost (see docs/grid-sampling.md).
#include <string>

#include "gpdp/grid.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/sampler.hpp"
#include "gpdp/samplers/circulant.hpp"

namespace gpdp {

struct PathwiseOptions {
  EmbeddingOptions embedding;
  // Largest integer refinement of the grid's lattice tried per axis to catch off-grid covariates.
  long max_refinement = 8;
  // A covariate counts as on the lattice when within this many (fine) lattice steps of a node.
  double lattice_tolerance = 1e-9;
};

// Empty when the pathwise sampler can draw EXACTLY for this posterior on this grid; otherwise the
// reason it cannot (the dispatcher then falls back and reports it).
std::string pathwise_unavailable_reason(const Posterior& posterior, const Grid& grid, double eta);
std::string pathwise_unavailable_reason(const Posterior& posterior, const Grid& grid, double eta,
                                        const PathwiseOptions& options);

// L exact draws of f_D + g on the grid (Grid::points() order). Throws InputError with the reason
// when pathwise_unavailable_reason is not empty.
Draws sample_pathwise(const Posterior& posterior, const Grid& grid, int draws, Rng& rng,
                      double eta);
Draws sample_pathwise(const Posterior& posterior, const Grid& grid, int draws, Rng& rng, double eta,
                      const PathwiseOptions& options);

}  // namespace gpdp
