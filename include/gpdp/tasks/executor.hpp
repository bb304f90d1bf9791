#pragma once
// Executors run task lists. A driver is written as: build a task list -> executor.map -> reduce
// the results in task order -> (next phase) -> write files; the same driver code runs on threads
// (ThreadExecutor, what the CLI uses) or on any other executor (CallbackExecutor: a Python
// coordinator dispatching to Dask, a process pool, ...). Results come back in task order whatever
// the order in which tasks finish.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gpdp/tasks/registry.hpp"
#include "gpdp/tasks/task.hpp"

namespace gpdp::tasks {

// progress(done, total) after each finished task (from any thread; calls are serialised).
using Progress = std::function<void(long done, long total)>;

class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::vector<nlohmann::json> map(const std::vector<Task>& tasks,
                                          const Progress& progress = {}) = 0;
};

// In process: parallel_for over the tasks on `threads` threads (0 = all cores), each through
// `registry` (the builtin one by default), with BLAS on one thread as on a worker (so results do
// not depend on `threads`). The first exception stops the map and is rethrown.
class ThreadExecutor final : public Executor {
 public:
  explicit ThreadExecutor(int threads = 0, const Registry& registry = builtin_registry());
  std::vector<nlohmann::json> map(const std::vector<Task>& tasks,
                                  const Progress& progress = {}) override;
  int threads() const { return threads_; }

 private:
  int threads_;
  const Registry& registry_;
};

// Hands the whole list to `dispatch`: (kind, params as JSON text) per task in, one CBOR result
// (cbor.hpp) per task out, in task order. The Python coordinator's map_tasks (gpdp.distributed)
// is such a function; it reports its own per-task progress, so `progress` here is called once,
// when every result is back.
class CallbackExecutor final : public Executor {
 public:
  using Dispatch = std::function<std::vector<std::string>(
      const std::vector<std::pair<std::string, std::string>>& tasks)>;
  explicit CallbackExecutor(Dispatch dispatch);
  std::vector<nlohmann::json> map(const std::vector<Task>& tasks,
                                  const Progress& progress = {}) override;

 private:
  Dispatch dispatch_;
};

}  // namespace gpdp::tasks
