#pragma once
// The preview's simulated private data sets: n records whose covariates are evaluation points
// (rows of EvaluationPoints::points), from public proxy records or from prior fields (preview.hpp).
#include <Eigen/Core>
#include <vector>

#include "gpdp/preview/evaluation_points.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::preview {

struct SimulatedSet {
  std::vector<Eigen::Index> rows;  // evaluation point of each record (n)
  Eigen::VectorXd y;               // responses in model units, |y| ≤ M_Y
};

// Every proxy covariate moved to its nearest evaluation point (Euclidean; ties: the first).
std::vector<Eigen::Index> nearest_evaluation_points(const Points& X,
                                                    const EvaluationPoints& evaluation);

// n records drawn from `records` (rows, y): without replacement while they last (all of them, in
// random order, when n ≥ size), the remainder with replacement.
SimulatedSet resample_records(const SimulatedSet& records, long n, Rng& rng);

// n evaluation points uniformly (without replacement while they last) observing σ·field + N(0, σ²
// r²) noise, clipped to ±M_Y; `field` is a unit prior draw on the evaluation points.
SimulatedSet prior_field_set(const Eigen::VectorXd& field, long n, double sigma, double r,
                             double M_Y, Rng& rng);

// A uniformly random index in [0, count).
Eigen::Index uniform_index(Rng& rng, Eigen::Index count);

}  // namespace gpdp::preview
