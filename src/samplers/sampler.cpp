#include "gpdp/samplers/sampler.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/samplers/dense.hpp"
#include "gpdp/samplers/markov.hpp"
#include "gpdp/samplers/pathwise.hpp"

namespace gpdp {

namespace {
// Auto uses the pathwise sampler on grids at least this large (below it the m x m dense
// factorisation costs less than the pathwise sampler's O(n³ + n m + m log m) set-up).
constexpr long kPathwiseAutoMinPoints = 1024;

// Operations of a dense draw on m points with n data: the m x m factorisation and the m x m
// posterior covariance K_GG − K_GX (K + r²I)⁻¹ K_XG.
double dense_flops(Eigen::Index n, long m) {
  const auto nd = static_cast<double>(n), md = static_cast<double>(m);
  return md * md * md / 3.0 + nd * md * md + nd * nd * md;
}

// Whether the dense sampler's two m x m matrices fit in memory (else it would refuse).
bool dense_fits(Eigen::Index n, long m) {
  const auto md = static_cast<double>(m), nd = static_cast<double>(n);
  return static_cast<double>(dense_bytes(md, md, 2)) +
             static_cast<double>(dense_bytes(nd, md, 2)) <=
         static_cast<double>(available_memory());
}

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

PreparedSampler::PreparedSampler(const Posterior& posterior, const Points& xs,
                                 const SampleOptions& options)
    : prepared_(posterior), xs_(xs), eta_(options.eta) {
  check_common(posterior, xs, 1, options);
  switch (options.method) {
    case SamplerMethod::Auto:
      method_ = markov_applicable(posterior) ? SamplerMethod::Markov : SamplerMethod::Dense;
      break;
    case SamplerMethod::Dense:
      method_ = SamplerMethod::Dense;
      break;
    case SamplerMethod::Markov:
      check_markov(posterior);
      method_ = SamplerMethod::Markov;
      break;
    case SamplerMethod::Pathwise:
      throw ParameterError({"sampler"},
                           "sampler pathwise needs the points of a whole regular grid (no mask), "
                           "not a list of points");
  }
  if (method_ == SamplerMethod::Dense)
    dense_ = std::make_unique<DenseSampler>(posterior, xs_, eta_);
}

PreparedSampler::PreparedSampler(const Posterior& posterior, const Grid& grid,
                                 const SampleOptions& options)
    : prepared_(posterior), xs_(grid.points()), grid_(grid), eta_(options.eta) {
  check_common(posterior, xs_, 1, options);
  switch (options.method) {
    case SamplerMethod::Auto:
      if (markov_applicable(posterior)) {
        method_ = SamplerMethod::Markov;
        break;
      }
      method_ = SamplerMethod::Dense;
      if (grid.size() >= kPathwiseAutoMinPoints) choose_pathwise(posterior, grid);
      break;
    case SamplerMethod::Dense:
      method_ = SamplerMethod::Dense;
      break;
    case SamplerMethod::Markov:
      check_markov(posterior);
      method_ = SamplerMethod::Markov;
      break;
    case SamplerMethod::Pathwise: {
      std::string why_not = pathwise_unavailable_reason(posterior, grid, eta_);
      if (why_not.empty()) {
        pathwise_ = std::make_unique<PathwiseSampler>(posterior, grid, eta_);
        why_not = pathwise_->reason();
      }
      if (!why_not.empty()) {
        throw ParameterError({"sampler"},
                             fmt::format("sampler pathwise cannot draw exactly here: {}", why_not));
      }
      method_ = SamplerMethod::Pathwise;
      break;
    }
  }
  if (method_ != SamplerMethod::Dense) return;
  try {
    dense_ = std::make_unique<DenseSampler>(posterior, xs_, eta_);
  } catch (const ResourceError& e) {
    if (why_not_pathwise_.empty()) throw;
    throw ResourceError(fmt::format("{} (pathwise not used: {})", e.what(), why_not_pathwise_));
  }
}

// Auto on a grid: pathwise when it draws exactly and, with off-lattice covariates, when their
// set-up (~n² M) costs less than the dense draw or the dense draw would not fit; its set-up then
// runs here, once. Otherwise dense, and why_not_pathwise_ says why.
void PreparedSampler::choose_pathwise(const Posterior& posterior, const Grid& grid) {
  const PathwisePlan plan = plan_pathwise(posterior, grid, eta_);
  why_not_pathwise_ = plan.reason;
  if (why_not_pathwise_.empty() && plan.off_lattice > 0 &&
      plan.setup_flops > dense_flops(posterior.n(), grid.size()) &&
      dense_fits(posterior.n(), grid.size())) {
    why_not_pathwise_ = fmt::format(
        "conditioning the {} off-lattice covariates on a torus of {} nodes costs ~{:.3g} GFLOP, "
        "more than this dense draw's ~{:.3g} GFLOP",
        plan.off_lattice, plan.torus_points, plan.setup_flops / 1e9,
        dense_flops(posterior.n(), grid.size()) / 1e9);
  }
  if (!why_not_pathwise_.empty()) return;
  auto pathwise = std::make_unique<PathwiseSampler>(posterior, grid, eta_);
  why_not_pathwise_ = pathwise->reason();
  if (!why_not_pathwise_.empty()) return;
  pathwise_ = std::move(pathwise);
  method_ = SamplerMethod::Pathwise;
}

PreparedSampler::PreparedSampler(PreparedSampler&&) noexcept = default;
PreparedSampler::~PreparedSampler() = default;

void PreparedSampler::check_same_covariance(const Posterior& p) const {
  const Posterior& q = prepared_;
  const bool same = p.kernel().name() == q.kernel().name() &&
                    p.kernel().lengthscale() == q.kernel().lengthscale() && p.r() == q.r() &&
                    p.sigma() == q.sigma() && p.X().rows() == q.X().rows() &&
                    p.X().cols() == q.X().cols() && p.X() == q.X();
  require(same,
          "prepared sampler: a draw needs the posterior it was prepared for, or one with the same "
          "kernel, covariates and θ (other responses)");
}

Draws PreparedSampler::draw(const Posterior& posterior, int draws, Rng& rng) const {
  require(draws >= 1, fmt::format("the number of draws must be ≥ 1, got {}", draws));
  check_same_covariance(posterior);
  switch (method_) {
    case SamplerMethod::Markov:
      return sample_markov(posterior, xs_, draws, rng, eta_);
    case SamplerMethod::Pathwise:
      return pathwise_->draw(posterior, draws, rng);
    default: {
      Draws d = dense_->draw(posterior, draws, rng);
      if (!why_not_pathwise_.empty())
        d.detail += fmt::format(" (pathwise not used: {})", why_not_pathwise_);
      return d;
    }
  }
}

Draws sample(const Posterior& posterior, const Points& xs, int draws, Rng& rng,
             const SampleOptions& options) {
  check_common(posterior, xs, draws, options);
  return PreparedSampler(posterior, xs, options).draw(posterior, draws, rng);
}

Draws sample(const Posterior& posterior, const Grid& grid, int draws, Rng& rng,
             const SampleOptions& options) {
  check_common(posterior, grid.points(), draws, options);
  return PreparedSampler(posterior, grid, options).draw(posterior, draws, rng);
}

}  // namespace gpdp
