#pragma once
// Privacy-constrained hyperparameter selection on a user's PUBLIC data (paper §6, eqs. 6–7): fit
// on public training observations, score θ by the mean BCE of p_D at independent public validation
// points, return θ* and θ_priv (ε_L(θ_priv) < ε₀ for the PRIVATE data size n), and the cutoff C of
// {p_D ≥ C} with the best validation IoU for each. θ chosen on the private data itself is not
// covered by the guarantee, so neither input may be the private data set. The θ evaluations run as
// "public_search.ell" tasks on the executor given (public_search_tasks.hpp): the result is the same
// whatever the executor and its number of threads or workers.
#include <Eigen/Core>
#include <functional>
#include <string>

#include "gpdp/experiments/privacy_constraint.hpp"
#include "gpdp/experiments/search.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::experiments {

struct PublicSearchSpec {
  double threshold = 0.0;        // t of the excursion set {f ≥ t}
  double target_epsilon = 10.0;  // ε₀ (strict: ε_L(θ_priv) < ε₀)
  ExcursionPrivacy privacy;      // n (private size), dim, L, δ, conversion
  SearchGrid grid;               // coarse grid; empty axes: default_search_grid(dim)
  int refinement_rounds = 2;
  std::function<void(const std::string&)> progress;
};

struct ThetaChoice {
  Theta theta{};
  double mean_bce = 0.0;        // on the validation points
  double epsilon = 0.0;         // ε_L(θ) (+∞ when none is finite)
  double cutoff_C = 0.5;        // C ∈ {0.05, …, 0.95} maximising the validation IoU
  double validation_iou = 0.0;  // IoU of {p_D ≥ C} against the validation truth
};

struct PublicSearchResult {
  ThetaChoice unconstrained;   // θ*
  ThetaChoice constrained;     // θ_priv
  long candidates = 0;         // distinct θ evaluated
  long reductions = 0;         // multi-ridge reductions (hybrid route, 2-D)
  long single_ridge_fits = 0;  // single-ridge posterior fits
  long tasks = 0;              // tasks dispatched
};

// train_X in [0,1]^d, |train_y| ≤ M_Y; validation_truth(i) ∈ {0, 1}: whether the field exceeds the
// threshold at validation_X(i) (equal quadrature weights). InputError on malformed input.
PublicSearchResult search_public_data(const Points& train_X, const Eigen::VectorXd& train_y,
                                      const Points& validation_X,
                                      const Eigen::VectorXd& validation_truth,
                                      const PublicSearchSpec& spec, tasks::Executor& executor);

// The cutoff C ∈ {0.05, …, 0.95} maximising IoU({p_D ≥ C}, truth) on the task's evaluation points
// at θ, and that IoU (first maximum on ties).
std::pair<double, double> best_probability_cutoff(const ExcursionTask& task, const Theta& theta,
                                                  double threshold);

}  // namespace gpdp::experiments
