#include "gpdp/sampler.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/samplers/dense.hpp"
#include "gpdp/samplers/markov.hpp"
#include "gpdp/samplers/pathwise.hpp"

namespace gpdp {

namespace {
// Auto uses the pathwise sampler on grids at least this large (below it the m x m dense
// factorisation costs less than the pathwise sampler's O(n³ + n m + m log m) set-up).
constexpr long kPathwiseAutoMinPoints = 1024;

// The markov sampler draws exactly only for the 1-D exponential kernel (Ornstein-Uhlenbeck).
void check_markov(const Posterior& posterior) {
  if (!markov_applicable(posterior)) {
    throw ParameterError(
        {"sampler"},
        fmt::format("sampler markov needs the exponential kernel in 1-D (got {} in {}-D)",
                    posterior.kernel().name(), posterior.dim()));
  }
}

void check_common(const Posterior& posterior, const Points& xs, int draws,
                  const SampleOptions& options) {
  require(draws >= 1, fmt::format("the number of draws must be ≥ 1, got {}", draws));
  require(std::isfinite(options.eta) && options.eta >= 0,
          fmt::format("η must be ≥ 0 and finite, got {}", options.eta));
  posterior.check_query(xs);
  require(xs.allFinite(), "query points contain NaN or Inf");
}
}  // namespace

SamplerMethod parse_sampler_method(const std::string& name) {
  if (name == "auto") return SamplerMethod::Auto;
  if (name == "dense") return SamplerMethod::Dense;
  if (name == "markov") return SamplerMethod::Markov;
  if (name == "pathwise") return SamplerMethod::Pathwise;
  throw InputError(
      fmt::format("unknown sampling method '{}': expected auto, dense, markov or pathwise", name));
}

std::string to_string(SamplerMethod method) {
  switch (method) {
    case SamplerMethod::Auto:
      return "auto";
    case SamplerMethod::Dense:
      return "dense";
    case SamplerMethod::Markov:
      return "markov";
    case SamplerMethod::Pathwise:
      return "pathwise";
  }
  return "?";
}

Draws sample(const Posterior& posterior, const Points& xs, int draws, Rng& rng,
             const SampleOptions& options) {
  check_common(posterior, xs, draws, options);
  switch (options.method) {
    case SamplerMethod::Auto:
      if (markov_applicable(posterior))
        return sample_markov(posterior, xs, draws, rng, options.eta);
      return sample_dense(posterior, xs, draws, rng, options.eta);
    case SamplerMethod::Dense:
      return sample_dense(posterior, xs, draws, rng, options.eta);
    case SamplerMethod::Markov:
      check_markov(posterior);
      return sample_markov(posterior, xs, draws, rng, options.eta);
    case SamplerMethod::Pathwise:
      throw ParameterError({"sampler"},
                           "sampler pathwise needs the points of a whole regular grid (no mask), "
                           "not a list of points");
  }
  throw InputError("unknown sampling method");
}

Draws sample(const Posterior& posterior, const Grid& grid, int draws, Rng& rng,
             const SampleOptions& options) {
  const Points xs = grid.points();
  check_common(posterior, xs, draws, options);
  switch (options.method) {
    case SamplerMethod::Auto: {
      if (markov_applicable(posterior))
        return sample_markov(posterior, xs, draws, rng, options.eta);
      std::string why_not;
      if (grid.size() >= kPathwiseAutoMinPoints) {
        why_not = pathwise_unavailable_reason(posterior, grid, options.eta);
        if (why_not.empty()) return sample_pathwise(posterior, grid, draws, rng, options.eta);
      }
      Draws d = sample_dense(posterior, xs, draws, rng, options.eta);
      if (!why_not.empty()) d.detail += fmt::format(" (pathwise not used: {})", why_not);
      return d;
    }
    case SamplerMethod::Dense:
      return sample_dense(posterior, xs, draws, rng, options.eta);
    case SamplerMethod::Markov:
      check_markov(posterior);
      return sample_markov(posterior, xs, draws, rng, options.eta);
    case SamplerMethod::Pathwise: {
      const std::string why_not = pathwise_unavailable_reason(posterior, grid, options.eta);
      if (!why_not.empty()) {
        throw ParameterError({"sampler"},
                             fmt::format("sampler pathwise cannot draw exactly here: {}", why_not));
      }
      return sample_pathwise(posterior, grid, draws, rng, options.eta);
    }
  }
  throw InputError("unknown sampling method");
}

}  // namespace gpdp
