#pragma once
// A released sample path f_D (+ g) evaluated lazily (docs/mathematics.md §1 "lazy evaluation", §3
// "Lazy path"): every new query is drawn jointly and CONDITIONALLY on everything the path has
// already answered, so answering X₁ then X₂ has exactly the law of answering X₁ ∪ X₂ at once, and a
// point asked twice returns the same value. The state (answered points and values) can be saved and
// restored (the release command persists it; `gpdp query` restores it).
//
// Cost of a new query of m points after k answered ones: the 1-D exponential kernel with η = 0
// conditions in O(n + k + m) by the Markov engine (answered values enter as noise-free
// observations); otherwise the path keeps the Cholesky factor of its answered values' covariance
// and extends it by one block per query (path_conditioning.hpp): O(k² m + k m² + m³ + n k m +
// n² m) per query, 4 k² bytes held, after one O(k³) factorisation when a saved state is first
// conditioned on (prepare_conditioning(), or the first query).
#include <Eigen/Core>
#include <map>
#include <string>
#include <vector>

#include "gpdp/grid.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/path_conditioning.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp {

class SamplePath {
 public:
  // A fresh path of f_D + g, g ~ GP(0, η² k) (η = 0: f_D alone); nothing answered yet. Its first
  // draw uses `method` (an inapplicable method is an InputError from sample()); later draws are
  // conditional on the answered values and choose their own exact method.
  explicit SamplePath(Posterior posterior, double eta = 0.0,
                      SamplerMethod method = SamplerMethod::Auto);
  // A path that has already answered f(points) = values (a saved state).
  SamplePath(Posterior posterior, double eta, Points points, Eigen::VectorXd values);

  // The path's values at xs (any order, duplicates allowed). Deterministic given the Rng stream.
  Eigen::VectorXd evaluate(const Points& xs, Rng& rng);
  // The same on a regular grid (point order as Grid::points()); the first evaluation of a fresh
  // path may then use the grid samplers (pathwise).
  Eigen::VectorXd evaluate(const Grid& grid, Rng& rng);

  const Posterior& posterior() const { return posterior_; }
  double eta() const { return eta_; }
  // The saved state: answered points (k x d) and their values, in the order first answered.
  const Points& points() const { return points_; }
  const Eigen::VectorXd& values() const { return values_; }
  Eigen::Index size() const { return points_.rows(); }
  // "method: detail" of the last draw of new values ("" if the last query was all known points).
  const std::string& last_method() const { return last_method_; }

  // Builds the conditioning on what is answered now (one O(k³) factorisation of a saved state),
  // so that the next query only extends it; a server calls this at start. No-op when it is
  // already built or the Markov engine conditions.
  void prepare_conditioning();
  // Bytes the conditioning state holds (the factor's lower triangle and the cross terms).
  double conditioning_bytes() const { return conditioning_.bytes(); }
  // Forgets the answers after the first `count` points: `count` must be size() before the last
  // evaluate() that added points (a query whose new state could not be saved).
  void truncate(Eigen::Index count);

 private:
  Eigen::VectorXd evaluate_impl(const Points& xs, const Grid* grid, Rng& rng);
  Eigen::VectorXd draw_new(const Points& fresh, const Grid* grid, Rng& rng);
  void remember(const Points& pts, const Eigen::VectorXd& vals);

  bool conditions_by_markov() const;

  Posterior posterior_;
  double eta_;
  SamplerMethod method_ = SamplerMethod::Auto;
  Points points_;
  Eigen::VectorXd values_;
  std::map<std::vector<double>, Eigen::Index> index_;  // exact coordinates -> row of points_
  std::string last_method_;
  PathConditioning conditioning_;  // accounts for the answered points once built (or extended)
};

}  // namespace gpdp
