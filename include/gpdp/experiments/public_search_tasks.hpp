#pragma once
// The hyperparameter search on one PUBLIC data set (search_public_data, public_search.hpp) as task
// lists: each evaluate call of the search is one "public_search.ell" task per length-scale ℓ of
// the call's θ (one posterior reduction per ℓ serves every r and σ; docs/scale.md). A task carries
// the data (a few hundred points: fig4-lucas's hexagons) and, on the hybrid route (2-D), the
// earlier calls at its ℓ, which a worker that has not made them replays, so that the z₁ it kept
// (ExcursionObjective's `keep`), and so the result, are the same on any worker. The search itself
// (proposals, ranking, refinement, the lockstep of the two searches) stays on the coordinator.
#include <Eigen/Core>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "gpdp/experiments/search.hpp"
#include "gpdp/tasks/executor.hpp"
#include "gpdp/tasks/task.hpp"

namespace gpdp::experiments {

// "public_search.ell" (added to the builtin registry by src/commands/builtin_tasks.cpp).
std::vector<tasks::TaskKind> public_search_tasks();

// Frees what this process keeps of the search its tasks last worked on (the per-ℓ objectives and
// their kept z₁); later tasks replay what they need, with the same results.
void forget_public_search_task_state();

// The search's BceObjective on one task (training data, evaluation points with equal weights,
// 0/1 labels), its evaluate calls dispatched through `executor`, one task per ℓ, in the order of
// the ℓ's first θ; the 1 x thetas matrix is assembled in θ order. Values are those of
// ExcursionObjective({task}, threshold, 1) making the same calls (BLAS on one thread).
class EllTaskObjective final : public BceObjective {
 public:
  EllTaskObjective(const ExcursionTask& task, double threshold, tasks::Executor& executor);
  Eigen::MatrixXd evaluate(const std::vector<Theta>& thetas,
                           const std::vector<std::pair<double, double>>& speculative = {},
                           bool keep = false) const override;
  void forget() const override;
  // Work of the calls themselves (replays on workers not counted), as ExcursionObjective's.
  long reductions() const { return reductions_; }
  long single_ridge_fits() const { return single_ridge_fits_; }
  // Tasks dispatched so far.
  long tasks_run() const { return tasks_run_; }

 private:
  nlohmann::json data_;  // the task's data and threshold: the first params of every task
  tasks::Executor& executor_;
  bool stateful_;  // hybrid route: tasks carry their ℓ's earlier calls
  mutable std::map<long long, nlohmann::json> history_;  // per log_key(ℓ): its calls so far
  mutable long reductions_ = 0;
  mutable long single_ridge_fits_ = 0;
  mutable long tasks_run_ = 0;
};

}  // namespace gpdp::experiments
