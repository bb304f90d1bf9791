#include "gpdp/experiments/public_search.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/public_search_tasks.hpp"
#include "gpdp/experiments/search.hpp"

namespace gpdp::experiments {

std::pair<double, double> best_probability_cutoff(const ExcursionTask& task, const Theta& theta,
                                                  double threshold) {
  const Eigen::VectorXd z = excursion_z(task, theta.ell, theta.r, threshold) / theta.sigma;
  Eigen::VectorXd p(z.size());
  for (Eigen::Index i = 0; i < z.size(); ++i) p[i] = 0.5 * std::erfc(-z[i] / std::sqrt(2.0));
  double best_c = 0.5, best_iou = -1.0;
  for (int k = 1; k <= 19; ++k) {
    const double c = 0.05 * k;
    const double iou = intersection_over_union(indicator_at_least(p, c), task.truth, *task.weights);
    if (iou > best_iou) {
      best_iou = iou;
      best_c = c;
    }
  }
  return {best_c, best_iou};
}

namespace {
void check_inputs(const Points& train_X, const Eigen::VectorXd& train_y, const Points& validation_X,
                  const Eigen::VectorXd& validation_truth, const PublicSearchSpec& spec) {
  require(train_X.rows() == train_y.size() && train_X.rows() >= 1,
          fmt::format("public search: {} training covariate rows but {} responses", train_X.rows(),
                      train_y.size()));
  require(validation_X.rows() == validation_truth.size() && validation_X.rows() >= 1,
          fmt::format("public search: {} validation rows but {} labels", validation_X.rows(),
                      validation_truth.size()));
  require(train_X.cols() == validation_X.cols(),
          "public search: training and validation data have different numbers of covariates");
  require(train_X.cols() == spec.privacy.dim,
          fmt::format(
              "public search: the data have {} covariate(s) but the privacy setting says dim = {}",
              train_X.cols(), spec.privacy.dim));
  require((train_X.array() >= 0.0).all() && (train_X.array() <= 1.0).all() &&
              (validation_X.array() >= 0.0).all() && (validation_X.array() <= 1.0).all(),
          "public search: covariates must lie in [0,1]^d (the bound uses κ on the unit box)");
  require(train_y.cwiseAbs().maxCoeff() <= spec.privacy.M_Y,
          fmt::format("public search: responses must satisfy |y| ≤ M_Y = {}", spec.privacy.M_Y));
  require(((validation_truth.array() == 0.0) || (validation_truth.array() == 1.0)).all(),
          "public search: validation labels must be 0 or 1");
  require(std::isfinite(spec.target_epsilon) && spec.target_epsilon > 0,
          fmt::format("public search: target ε must be positive, got {}", spec.target_epsilon));
}
}  // namespace

PublicSearchResult search_public_data(const Points& train_X, const Eigen::VectorXd& train_y,
                                      const Points& validation_X,
                                      const Eigen::VectorXd& validation_truth,
                                      const PublicSearchSpec& spec, tasks::Executor& executor) {
  check_inputs(train_X, train_y, validation_X, validation_truth, spec);
  SearchGrid grid = spec.grid;
  const SearchGrid fallback = default_search_grid(spec.privacy.dim == 1 ? 1 : 2);
  if (grid.ell.empty()) grid.ell = fallback.ell;
  if (grid.r.empty()) grid.r = fallback.r;
  if (grid.sigma.empty()) grid.sigma = fallback.sigma;

  const ExcursionTask task{
      train_X, train_y, std::make_shared<const Points>(validation_X),
      std::make_shared<const Eigen::VectorXd>(Eigen::VectorXd::Constant(
          validation_X.rows(), 1.0 / static_cast<double>(validation_X.rows()))),
      validation_truth};
  // Refuses, before any task is sent, a task that cannot fit in this process's memory.
  const ExcursionObjective check({task}, spec.threshold, 1);
  const EllTaskObjective objective(task, spec.threshold, executor);
  HyperparameterSearch search(objective, SearchSpec{grid, spec.refinement_rounds, 3},
                              spec.progress);
  const PrivacyConstraint constraint = spec.privacy.constraint(spec.target_epsilon);
  const std::vector<SearchResult> found = search.run_together({nullptr, &constraint});

  auto choice = [&](const SearchResult& r) {
    ThetaChoice c;
    c.theta = r.best;
    c.mean_bce = r.objective;
    c.epsilon = spec.privacy.epsilon(r.best);
    std::tie(c.cutoff_C, c.validation_iou) = best_probability_cutoff(task, r.best, spec.threshold);
    return c;
  };
  PublicSearchResult out;
  out.unconstrained = choice(found[0]);
  out.constrained = choice(found[1]);
  out.candidates = search.distinct_evaluations();
  out.reductions = objective.reductions();
  out.single_ridge_fits = objective.single_ridge_fits();
  out.tasks = objective.tasks_run();
  return out;
}

}  // namespace gpdp::experiments
