#pragma once
// The private excursion-set release (paper §5): threshold L released sample paths and keep the
// points where the vote fraction reaches c,
//   Ω̂⁽ᴸ⁾ = { x : (1/L) Σ_l 1{f⁽ˡ⁾(x) ≥ t} ≥ c }.
// Every function here is a post-processing of the sampled paths ONLY: they take the path values
// (a Draws matrix or its columns) and public constants, never a Posterior, μ_D or k_D, so the
// released set inherits the (ε_L, δ) guarantee of the L paths.
#include <Eigen/Core>

#include "gpdp/grid.hpp"
#include "gpdp/sampler.hpp"

namespace gpdp::experiments {

// paths: m x L (one released path per column). Returns 0/1 indicators on the m points.
Eigen::VectorXd vote_release(const Eigen::Ref<const Eigen::MatrixXd>& paths, double threshold,
                             double vote_cutoff);
// Release number b from a batch of B·L draws: columns [b L, (b + 1) L) of draws.values.
Eigen::VectorXd vote_release(const Draws& draws, int paths_per_release, int release_index,
                             double threshold, double vote_cutoff);

// Data-independent smoothing of paths on a regular 2-D (or 1-D) grid: separable Gaussian filter
// with standard deviation `bandwidth` in the grid's coordinate units, reflecting boundaries,
// weights normalised per point. Post-processing; bandwidth ≤ 0 returns the paths unchanged.
Eigen::MatrixXd smooth_paths(const Eigen::Ref<const Eigen::MatrixXd>& paths, const Grid& grid,
                             double bandwidth);

}  // namespace gpdp::experiments
