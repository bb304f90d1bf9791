#pragma once
// Exact draws of the unit prior GP(0, k) on a FIXED set of evaluation points, many times: the
// building block of the preview's simulated releases (Matheron's rule needs prior fields, and the
// simulated private covariates are evaluation points, so one prior sampler serves every draw).
//   grid (whole or masked): circulant embedding of the grid's lattice (samplers/circulant.hpp),
//                           restricted to the evaluated cells, when a nonnegative definite
//                           embedding exists;
//   otherwise:              one factorisation of k(xs, xs) (factor_psd), then one product per draw.
// Seeded experiments only; nothing here is a release.
#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/grid.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::preview {

// The points a release evaluates: a grid in grid order, the cells of a masked grid, or explicit
// points (the release's Evaluation, reduced to what the simulations need).
struct EvaluationPoints {
  Points points;                    // m x d
  std::optional<Grid> grid;         // present for --grid / --grid2d
  std::vector<Eigen::Index> cells;  // with a mask: the grid rows evaluated (else empty)
  bool masked() const { return !cells.empty(); }
  // A field on the evaluated points spread onto the whole grid (NaN outside the mask).
  Eigen::VectorXd on_grid(const Eigen::VectorXd& values) const;
  // The evaluated points' entries of a whole-grid field.
  Eigen::VectorXd from_grid(const Eigen::VectorXd& full) const;
};

class PriorSampler {
 public:
  PriorSampler(const Kernel& kernel, const EvaluationPoints& evaluation);
  PriorSampler(PriorSampler&&) noexcept;
  ~PriorSampler();
  // `count` independent N(0, k(xs, xs)) draws as the columns of an m x count matrix.
  Eigen::MatrixXd draw(Rng& rng, int count);
  // "circulant embedding (...)" or "dense (...)".
  const std::string& method() const { return method_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string method_;
};

}  // namespace gpdp::preview
