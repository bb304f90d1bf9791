#pragma once
// A seeded 2-D plume (f*, D) pair (experiments/fields.hpp) with n data points on `grid`: the test
// data of the multi-ridge engines and of the excursion objective.
#include <cstdint>

#include "gpdp/experiments/fields.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::test {

inline experiments::ExcursionPair plume_pair(std::uint64_t seed, long n, const Grid& grid) {
  SeededRng rng(seed);
  experiments::Plume2dSpec spec;
  spec.n = n;
  return experiments::generate_plume_2d(spec, grid, rng);
}

}  // namespace gpdp::test
