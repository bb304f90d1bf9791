#pragma once
// Deterministic parallel loop for experiments and sweeps: work item i always runs with the same
// inputs (its own seed), results go to slot i, so the output does not depend on the thread count.
#include <functional>

namespace gpdp {

// Number of worker threads for `requested` (0 = all hardware threads, at least 1).
int resolve_threads(int requested);

// OpenBLAS on one thread while this object lives (restored after): the parallelism is then across
// work items, never workers x BLAS threads, and a BLAS call rounds the same on any thread count.
class SingleThreadedBlas {
 public:
  SingleThreadedBlas();
  ~SingleThreadedBlas();
  SingleThreadedBlas(const SingleThreadedBlas&) = delete;
  SingleThreadedBlas& operator=(const SingleThreadedBlas&) = delete;

 private:
  int saved_;
};

// Calls body(i) for i in [0, count) on `threads` workers (0 = all; dynamic scheduling). After the
// first exception thrown by any body no new item starts; it is rethrown once all workers stop.
void parallel_for(long count, int threads, const std::function<void(long)>& body);

}  // namespace gpdp
