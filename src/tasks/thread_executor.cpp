#include <mutex>

#include "gpdp/parallel.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::tasks {

ThreadExecutor::ThreadExecutor(int threads, const Registry& registry)
    : threads_(resolve_threads(threads)), registry_(registry) {}

std::vector<nlohmann::json> ThreadExecutor::map(const std::vector<Task>& tasks,
                                                const Progress& progress) {
  std::vector<nlohmann::json> results(tasks.size());
  const auto total = static_cast<long>(tasks.size());
  long done = 0;
  std::mutex progress_mutex;
  // As on a worker (gpdp.distributed pins BLAS to one thread): the same rounding on any number of
  // threads, one included.
  const SingleThreadedBlas one_blas_thread;
  parallel_for(total, threads_, [&](long i) {
    const auto k = static_cast<std::size_t>(i);
    results[k] = registry_.run(tasks[k]);
    if (progress) {
      const std::lock_guard<std::mutex> lock(progress_mutex);
      progress(++done, total);
    }
  });
  return results;
}

}  // namespace gpdp::tasks
