#pragma once
// The Markov sampler: exact draws for the 1-D exponential kernel in O(n + m) by the posterior's
// Ornstein–Uhlenbeck engine (gpdp/ornstein_uhlenbeck.hpp: Kalman filter, forward-filter
// backward-sampling).
#include "gpdp/ornstein_uhlenbeck.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp {

// True when the Markov engine applies: exponential kernel in one dimension.
bool markov_applicable(const Posterior& posterior);

// Exact draws of f_D + g on xs, g ~ GP(0, η² k) independent. f_D by forward-filter
// backward-sampling; g (a prior OU draw) by its own exact O(m) recursion (f_D + g is not Markov
// given the data, but each term is, and they are independent).
Draws sample_markov(const Posterior& posterior, const Points& xs, int draws, Rng& rng, double eta);

}  // namespace gpdp
