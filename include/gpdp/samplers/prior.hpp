#pragma once
// Exact draws of the unit prior GP(0, k) on a FIXED set of points, many times: the noise g of the
// functional mechanism μ_D + s·g (docs/privacy.md) and the prior fields of the preview's simulated
// releases (Matheron's rule). Exact in distribution, like every sampler here:
//   a grid, whole or masked (the evaluated rows `cells` of Grid::points()): circulant embedding of
//             the grid's lattice (samplers/circulant.hpp), restricted to the cells, when a
//             nonnegative definite embedding exists;
//   otherwise: one factorisation of k(xs, xs) (factor_psd: Cholesky, pivoted when singular), then
//             one triangular product per draw.
#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/grid.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/rng.hpp"

namespace gpdp {

class PriorSampler {
 public:
  // `points` are the rows of `grid`'s points listed in `cells` (all of them, in grid order, when
  // `cells` is empty), or any points when there is no grid.
  PriorSampler(const Kernel& kernel, const Points& points, const std::optional<Grid>& grid,
               const std::vector<Eigen::Index>& cells);
  PriorSampler(PriorSampler&&) noexcept;
  ~PriorSampler();
  // `count` independent N(0, k(xs, xs)) draws as the columns of an m x count matrix. Not
  // reentrant (the embedding's FFT buffers): one thread at a time.
  Eigen::MatrixXd draw(Rng& rng, int count);
  // "circulant embedding (...)" or "dense (...)".
  const std::string& method() const { return method_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string method_;
};

}  // namespace gpdp
