#pragma once
// The nodes of a circulant embedding's lattice as points (header-only, for the sampler tests).
#include "gpdp/kernel.hpp"
#include "gpdp/samplers/circulant.hpp"

namespace gpdp::test {

// Node coordinates (first axis fastest), node 0 at the origin, node j at j_a · step_a.
inline Points lattice_points(const Lattice& lattice) {
  const long n1 = lattice.counts[0], n2 = lattice.dim() > 1 ? lattice.counts[1] : 1;
  Points p(n1 * n2, lattice.dim());
  for (long i2 = 0; i2 < n2; ++i2) {
    for (long i1 = 0; i1 < n1; ++i1) {
      p(i2 * n1 + i1, 0) = static_cast<double>(i1) * lattice.steps[0];
      if (lattice.dim() > 1) p(i2 * n1 + i1, 1) = static_cast<double>(i2) * lattice.steps[1];
    }
  }
  return p;
}

}  // namespace gpdp::test
