#pragma once
// The auditor's local searches (internal), run in this process on `threads` or, given an executor,
// as tasks (privacy/audit_tasks.hpp): "audit.ascent" (one gradient-search start) and
// "audit.subplex" (one Subplex restart). Each start depends on its params only, and the results
// are merged in start order, so the best pair found is the same whichever way they run.
#include <vector>

#include "audit_objectives.hpp"
#include "gpdp/domain.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::auditor {

// Where a search's pairs live: the mechanism at size m.n, the box, the codec's shape.
struct SearchSpace {
  const privacy::GpMechanism& m;
  const Box& box;
  int extra_test = 0;
  bool same_covariate = false;
};

// gradient_search over `starts` (pairs of size space.m.n).
Found run_ascents(const SearchSpace& space, const std::vector<Start>& starts,
                  const ObjectiveSpec& objective, int max_iterations, int threads,
                  tasks::Executor* executor);
// subplex_search from the given restarts (subplex_starts).
Found run_subplex(const SearchSpace& space, const std::vector<std::vector<double>>& starts,
                  const ObjectiveSpec& objective, int max_evals, int threads,
                  tasks::Executor* executor);

}  // namespace gpdp::auditor
