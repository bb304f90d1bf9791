#include "gpdp/samplers/pathwise.hpp"

#include "gpdp/error.hpp"

namespace gpdp {

// Placeholder while the circulant-embedding sampler is written: it never claims it can draw, so the
// dispatcher always falls back to an exact dense method.
std::string pathwise_unavailable_reason(const Posterior&, const Grid&, double) {
  return "pathwise sampler not built yet";
}

Draws sample_pathwise(const Posterior&, const Grid&, int, Rng&, double) {
  throw NumericalError("pathwise sampler not built yet");
}

}  // namespace gpdp
