#pragma once
// Memory before allocation: every dense path (a posterior's n x n factorisation, a dense draw's
// m x m covariance, the search's per-task engines) estimates what it needs and refuses with a
// ResourceError — what it needs, what is available, what to do instead — rather than crash or
// swap. Nothing is allocated before the check.
#include <cstdint>
#include <string>

namespace gpdp {

// Bytes this process may still allocate: MemAvailable (/proc/meminfo), lowered by a cgroup memory
// limit (v2 memory.max − memory.current, v1 limit_in_bytes − usage_in_bytes) when one is set.
// GPDP_MEMORY_LIMIT (bytes, or with a K/M/G/T suffix: "4G") replaces it: a scheduler's per-worker
// limit, or a test.
std::uint64_t available_memory();

// Bytes of `count` dense rows x cols matrices of doubles (saturating: never overflows).
std::uint64_t dense_bytes(double rows, double cols, double count = 1.0);

// "1.50 GB" (decimal units, as free(1) -h does not: GB = 10⁹ bytes).
std::string format_bytes(double bytes);

// The alternatives a refusal names for the dense GP paths.
inline constexpr const char* kDenseAlternatives =
    "aggregate the records first (hexbin), use a coarser grid or fewer points, or the 1-D "
    "exponential kernel (O(n) Markov engine)";

// Throws ResourceError("<what> needs N GB of memory (<how>), only M GB is available; instead:
// <alternatives>") when `bytes` exceeds available_memory(). Requests under 16 MB pass without
// probing unless GPDP_MEMORY_LIMIT is set (the query paths check in loops).
void require_memory(double bytes, const std::string& what, const std::string& how,
                    const std::string& alternatives = kDenseAlternatives);

}  // namespace gpdp
