#pragma once
// Pathwise conditioning (Matheron's rule) with an exact prior draw on a regular grid by circulant
// embedding (SPEC §3). Owned by the grid-sampler work; the dispatcher in sampler.cpp calls it.
#include <string>

#include "gpdp/grid.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/sampler.hpp"

namespace gpdp {

// Empty when the pathwise sampler can draw EXACTLY for this posterior on this grid; otherwise the
// reason it cannot (the dispatcher then falls back and reports it).
std::string pathwise_unavailable_reason(const Posterior& posterior, const Grid& grid, double eta);

Draws sample_pathwise(const Posterior& posterior, const Grid& grid, int draws, Rng& rng, double eta);

}  // namespace gpdp
