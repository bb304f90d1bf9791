#pragma once
// Several drivers on one executor, their task lists merged round by round. run_together runs each
// driver on a coordinator thread of its own, with an Executor of its own; whenever every driver
// that has not finished is waiting in map(), their lists are concatenated (in driver order) into
// ONE map on `executor`, made from the calling thread, and each driver gets its own results back.
// A driver thus computes exactly what it computes alone (its tasks, its merge order), while the
// workers get one long list per round instead of many short ones in turn: e.g. the audits of
// gpdp-lab audit-study (privacy/audit_study.hpp), each a sequence of short task lists. The
// coordinator threads only wait while the tasks run. (Defined in the core layer, src/, so that
// every layer's drivers can use it; the executors themselves are in gpdp_tasks.)
#include <functional>
#include <vector>

#include "gpdp/tasks/executor.hpp"

namespace gpdp::tasks {

using Driver = std::function<void(Executor& executor)>;

// Returns when every driver has returned. The first exception (in driver order) thrown by a
// driver is rethrown then; an exception thrown by executor.map reaches every driver waiting in
// that round. `progress` goes to each round's map.
void run_together(Executor& executor, const std::vector<Driver>& drivers,
                  const Progress& progress = {});

}  // namespace gpdp::tasks
