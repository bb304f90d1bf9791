#include "gpdp/samplers/markov.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/posterior.hpp"

namespace gpdp {

bool markov_applicable(const Posterior& posterior) { return posterior.markov() != nullptr; }

Draws sample_markov(const Posterior& posterior, const Points& xs, int draws, Rng& rng, double eta) {
  const auto* engine = posterior.markov();
  if (engine == nullptr) {
    throw InputError(
        fmt::format("the markov sampler needs the exponential kernel in 1-D (got {} in {}-D)",
                    posterior.kernel().name(), posterior.dim()));
  }
  require(xs.cols() == 1,
          fmt::format("markov sampler: query points have {} columns, expected 1", xs.cols()));
  require(std::isfinite(eta) && eta >= 0, fmt::format("η must be ≥ 0, got {}", eta));
  Draws d;
  d.values = engine->sample(xs.col(0), draws, rng, posterior.sigma());
  d.method = "markov";
  d.detail =
      fmt::format("Kalman filter + backward sampling (OU state space), n = {} data, m = {} points",
                  posterior.n(), xs.rows());
  if (eta > 0) {
    // g ~ GP(0, η² k) is an independent prior OU draw: its own exact O(m) recursion.
    add_ou_prior_draws(xs.col(0), engine->lengthscale(), eta, rng, d.values);
    d.detail += fmt::format("; + prior noise η = {} by its own OU recursion", eta);
  }
  return d;
}

}  // namespace gpdp
