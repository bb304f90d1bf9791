#pragma once
// The privacy–utility excursion-set study of paper §5 / App. D (docs/mathematics.md §5), end to
// end:
//   1. a population of N (f*, D) pairs and a separate validation population (seeded);
//   2. θ* = BCE-optimal θ, θ_priv = BCE-optimal θ with ε_L(θ) < ε₀ (search.hpp);
//   3. on the validation population: C maximising mean IoU of {p_D ≥ C} at θ*, and the vote
//      cutoff c maximising the mean IoU of the L-path release at θ_priv;
//   4. on the population: d_eff, BCE, IoU of {p_D ≥ C} at θ*, and B Monte-Carlo private releases
//      (L paths each, drawn by gpdp::sample, optionally smoothed, then voted: release.hpp) at
//      θ_priv.
// Seeded throughout (an experiment, not a release). Pair j always uses the streams derived from
// (seed, j), so results do not depend on the thread count.
// Each step is a task list over chunks of pairs (utility_tasks.hpp) run by an executor: a
// ThreadExecutor in this process, or workers elsewhere (docs/scale.md); the results, reduced in
// task order here, are the same whichever executor runs them.
#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/experiments/fields.hpp"
#include "gpdp/experiments/privacy_constraint.hpp"
#include "gpdp/experiments/search.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::experiments {

struct StudySpec {
  std::string label;  // e.g. "NSR = 1.00, n = 100"
  int dim = 1;        // 1: Field1dSpec, 2: Plume2dSpec
  Field1dSpec field1d;
  Plume2dSpec field2d;
  Grid grid = Grid::parse("0:1:800");
  long pairs = 1000;  // N
  long validation_pairs = 1000;
  std::uint64_t seed = 20260616;
  SearchSpec search;
  double epsilon_max = 10.0;         // ε₀
  ExcursionPrivacy privacy;          // n, L, δ, conversion (n and dim are set from the fields)
  int releases = 50;                 // B
  double smoothing_bandwidth = 0.0;  // 2-D post-processing filter (grid units of [0,1]); 0 = none
  std::vector<double> probability_cutoffs;  // C candidates; empty = 0.05, 0.10, …, 0.95
  int threads = 0;        // threads (or workers) the tasks are sized for: about 4 chunks each
  int keep_examples = 0;  // keep fields of the first k pairs for figures
  SamplerMethod sampler = SamplerMethod::Auto;
  PosteriorRoute search_route = PosteriorRoute::Auto;  // how the search computes p_D (search.hpp)
};

struct PairOutcome {
  double d_eff_unconstrained = 0.0;
  double d_eff_private = 0.0;
  double bce_unconstrained = 0.0;
  double bce_private = 0.0;
  double iou_unconstrained = 0.0;  // {p_D ≥ C} at θ*
  double iou_release_mean = 0.0;   // mean over B releases at θ_priv
  double iou_release_sd = 0.0;     // SD over B releases (B − 1 denominator)
  double relative_bce_increase() const { return bce_private / bce_unconstrained - 1.0; }
  double relative_iou_gap() const { return 1.0 - iou_release_mean / iou_unconstrained; }
};

struct StudyExample {
  ExcursionPair pair;
  Eigen::VectorXd p_unconstrained;  // p_D at θ*
  Eigen::MatrixXd releases;         // m x 3: three one-release indicator sets at θ_priv
};

struct StudyResult {
  StudySpec spec;
  Theta theta_unconstrained{};
  Theta theta_private{};
  double epsilon_unconstrained = 0.0;
  double epsilon_private = 0.0;
  double cutoff_C = 0.5;
  double cutoff_c = 1.0;
  double validation_iou_C = 0.0;
  double validation_iou_c = 0.0;
  std::vector<PairOutcome> pairs;
  std::vector<StudyExample> examples;
  long distinct_thetas = 0;          // θ evaluated over the whole population (both searches)
  long distinct_posteriors = 0;      // distinct (ℓ, r) among them: posteriors fitted per pair
  double reductions_per_pair = 0.0;  // search work done (ExcursionObjective counters):
                                     // reductions serving every r (eigen or tridiagonal)
  double single_ridge_fits_per_pair = 0.0;  // and single-ridge fits (Markov 1-D, Cholesky 2-D)
  std::string sampler_method;
  double seconds_generate = 0, seconds_search = 0, seconds_validation = 0, seconds_release = 0;
};

StudyResult run_study(const StudySpec& spec, tasks::Executor& executor,
                      const std::function<void(const std::string&)>& progress = {});

// Median and interquartile range (linear interpolation between order statistics).
struct Quartiles {
  double q1, median, q3;
};
Quartiles quartiles(std::vector<double> values);

}  // namespace gpdp::experiments
