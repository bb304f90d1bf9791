#pragma once
// The experiments use the library's deterministic parallel loop (gpdp/parallel.hpp).
#include "gpdp/parallel.hpp"

namespace gpdp::experiments {
using gpdp::parallel_for;
using gpdp::resolve_threads;
}  // namespace gpdp::experiments
