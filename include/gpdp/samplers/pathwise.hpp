#pragma once
// Pathwise conditioning (Matheron's rule) with an exact prior draw on a regular grid by circulant
// embedding (docs/mathematics.md §3, docs/grid-sampling.md). The dispatcher in sampler.cpp calls
// it.
//
//   f_D(G) + g(G) = f(G) + k(G, X)(K + r² I)⁻¹ (y − f(X) − ε) + g(G),
//   f ~ GP(0, σ² k), ε ~ N(0, σ² r² I), g ~ GP(0, η² k), all independent,
// has exactly the law GP(μ_D, σ² k_D + η² k) on G. It needs the prior f JOINTLY on G and X:
//   * covariates on a lattice: one circulant-embedding draw on a lattice that contains every grid
//     point and every training covariate (the grid's lattice refined by an integer q ≤
//     max_refinement per axis, extended to cover X); k(G, X)v is an FFT convolution on it;
//   * covariates off every such lattice: the draw on the grid's lattice (extended to cover X), and
//     f(X) from its exact conditional law given the whole torus draw (samplers/torus_sites.hpp:
//     C⁻¹ by FFT, an n x n Schur complement checked positive semidefinite; no iterative solve).
// Exact (up to floating point) when:
//   * the grid is 1-D or 2-D with ≥ 2 points per axis, and the kernel is stationary (all gpdp
//     kernels are);
//   * the chosen embedding is nonnegative definite (positive definite for off-lattice covariates):
//     its smallest FFT eigenvalue ≥ −(rounding tolerance ~ 16 ε log₂M ‖c‖₂) (> + that tolerance);
//     no eigenvalue is ever clipped;
//   * off-lattice only: the Schur complement S = K_XX − Uᵀ C⁻¹ U is positive semidefinite (checked
//     at set-up; try_sample_pathwise reports a failure, sample_pathwise throws).
// Otherwise the reason is returned and the dispatcher uses an exact dense method.
#include <memory>
#include <optional>
#include <string>

#include "gpdp/grid.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/circulant.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp {

struct PathwiseOptions {
  EmbeddingOptions embedding;
  // Largest integer refinement of the grid's lattice tried per axis to catch off-grid covariates.
  long max_refinement = 8;
  // A covariate counts as on the lattice when within this many (fine) lattice steps of a node.
  double lattice_tolerance = 1e-9;
  // Covariates off every refined lattice are conditioned on the torus draw (TorusSites); false
  // refuses them instead.
  bool off_lattice = true;
  // Threads for the off-lattice set-up (0 = all hardware threads).
  int threads = 0;
};

// What the pathwise sampler would do for this posterior and grid (the dispatcher's choice).
struct PathwisePlan {
  std::string reason;            // "" when it can draw exactly (off-lattice: see the header)
  Eigen::Index off_lattice = 0;  // covariates conditioned on the torus (0: all on lattice nodes)
  // Once an embedding is found (also when the off-lattice set-up then does not fit in memory):
  long torus_points = 0;     // M, the embedding's torus
  double setup_flops = 0.0;  // the off-lattice set-up's operation count (TorusSites)
};
PathwisePlan plan_pathwise(const Posterior& posterior, const Grid& grid, double eta,
                           const PathwiseOptions& options = {});

// Empty when the pathwise sampler can draw EXACTLY for this posterior on this grid; otherwise the
// reason it cannot (the dispatcher then falls back and reports it).
std::string pathwise_unavailable_reason(const Posterior& posterior, const Grid& grid, double eta);
std::string pathwise_unavailable_reason(const Posterior& posterior, const Grid& grid, double eta,
                                        const PathwiseOptions& options);

// The pathwise sampler prepared once for many draws on one grid (PreparedSampler): the lattice
// plan, the embedding and, for off-lattice covariates, their conditioning on the torus
// (TorusSites) — all of which depend on the kernel, the covariates and the grid only, so draw()
// serves any posterior with the same kernel, covariates and θ.
class PathwiseSampler {
 public:
  PathwiseSampler(const Posterior& posterior, const Grid& grid, double eta,
                  const PathwiseOptions& options = {});
  PathwiseSampler(PathwiseSampler&&) noexcept;
  ~PathwiseSampler();
  // "" when it draws exactly; otherwise why not (draw() then throws InputError with it).
  const std::string& reason() const { return reason_; }
  // L exact draws of f_D + g on the grid (Grid::points() order). Not reentrant (FFT buffers).
  Draws draw(const Posterior& posterior, int draws, Rng& rng);

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::string reason_;
  std::string detail_;
  double eta_ = 0.0;
  long m_ = 0;
};

// L exact draws of f_D + g on the grid (Grid::points() order). Throws InputError with the reason
// when pathwise_unavailable_reason is not empty.
Draws sample_pathwise(const Posterior& posterior, const Grid& grid, int draws, Rng& rng,
                      double eta);
Draws sample_pathwise(const Posterior& posterior, const Grid& grid, int draws, Rng& rng, double eta,
                      const PathwiseOptions& options);
// The same, but nullopt with `why_not` when it cannot draw exactly, including a failed off-lattice
// joint check (found in the set-up, before any randomness is used).
std::optional<Draws> try_sample_pathwise(const Posterior& posterior, const Grid& grid, int draws,
                                         Rng& rng, double eta, std::string& why_not,
                                         const PathwiseOptions& options = {});

}  // namespace gpdp
