#pragma once
// Deterministic parallel loop for experiments and sweeps: work item i always runs with the same
// inputs (its own seed), results go to slot i, so the output does not depend on the thread count.
#include <functional>

namespace gpdp {

// Number of worker threads for `requested` (0 = all hardware threads, at least 1).
int resolve_threads(int requested);

// Calls body(i) for i in [0, count) on `threads` workers (0 = all; dynamic scheduling). After the
// first exception thrown by any body no new item starts; it is rethrown once all workers stop.
void parallel_for(long count, int threads, const std::function<void(long)>& body);

}  // namespace gpdp
