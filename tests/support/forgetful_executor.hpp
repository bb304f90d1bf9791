#pragma once
// An executor whose every task runs as on a worker that has seen none of the earlier tasks: before
// each task it calls `forget` (which frees what the task kinds keep in this process, e.g.
// experiments::forget_utility_task_state), and BLAS runs on one thread, as on a worker. A driver
// whose results do not change on it replays correctly whatever its tasks keep between calls.
#include <functional>
#include <utility>
#include <vector>

#include "gpdp/lab/registry.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::test {

class ForgetfulExecutor final : public tasks::Executor {
 public:
  explicit ForgetfulExecutor(std::function<void()> forget) : forget_(std::move(forget)) {}
  std::vector<nlohmann::json> map(const std::vector<tasks::Task>& list,
                                  const tasks::Progress&) override {
    const SingleThreadedBlas one_blas_thread;
    std::vector<nlohmann::json> results;
    for (const auto& task : list) {
      forget_();
      results.push_back(lab::run_task(task));
    }
    return results;
  }

 private:
  std::function<void()> forget_;
};

}  // namespace gpdp::test
