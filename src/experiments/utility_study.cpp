#include "gpdp/experiments/utility_study.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>

#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/ridge_cholesky.hpp"
#include "gpdp/experiments/spectral_posterior.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/samplers/dense.hpp"

namespace gpdp::experiments {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Independent streams: population pairs, validation pairs, release draws, validation draws.
constexpr std::uint64_t kPopulationStream = 0;
constexpr std::uint64_t kValidationStream = 1ULL << 40;
constexpr std::uint64_t kReleaseStream = 2ULL << 40;
constexpr std::uint64_t kValidationReleaseStream = 3ULL << 40;

ExcursionPair generate(const StudySpec& spec, Rng& rng) {
  return spec.dim == 1 ? generate_field_1d(spec.field1d, spec.grid, rng)
                       : generate_plume_2d(spec.field2d, spec.grid, rng);
}

std::vector<ExcursionPair> generate_population(const StudySpec& spec, long count,
                                               std::uint64_t stream) {
  std::vector<ExcursionPair> pairs(static_cast<std::size_t>(count));
  const SeededRng base(spec.seed);
  parallel_for(count, spec.threads, [&](long j) {
    SeededRng rng = base.split(stream + static_cast<std::uint64_t>(j));
    pairs[static_cast<std::size_t>(j)] = generate(spec, rng);
  });
  return pairs;
}

std::vector<ExcursionTask> to_tasks(const std::vector<ExcursionPair>& pairs,
                                    const std::shared_ptr<const Points>& grid_points,
                                    const std::shared_ptr<const Eigen::VectorXd>& weights) {
  std::vector<ExcursionTask> tasks;
  tasks.reserve(pairs.size());
  for (const auto& p : pairs) tasks.push_back({p.X, p.y, grid_points, weights, p.truth});
  return tasks;
}

// z₁ at one θ: the Markov engine in 1-D (O(n + m)); given the pair's grid distances (2-D), one
// Cholesky on them (BLAS trsm: about 4x faster than Posterior's for n = 400, m = 1600).
Eigen::VectorXd z_at(const ExcursionTask& task, const Theta& t, double threshold,
                     const PairwiseDistances* distances) {
  if (distances == nullptr) return excursion_z(task, t.ell, t.r, threshold);
  RidgeCholesky ridge;
  ridge.refit(Kernel::exponential(t.ell), *distances);
  return ridge.excursion_z(t.r, task.y, threshold);
}

// The pair's distances to the grid, shared by its z₁ and its draws (2-D only).
std::optional<PairwiseDistances> grid_distances(const StudySpec& spec, const ExcursionPair& pair,
                                                const Points& grid_points) {
  if (spec.dim < 2) return std::nullopt;
  return PairwiseDistances(pair.X, grid_points);
}

Posterior posterior_at(const ExcursionPair& pair, const Theta& t) {
  return Posterior(Kernel::exponential(t.ell), pair.X, pair.y, Hyperparameters{t.r, t.sigma});
}

Eigen::VectorXd probability_from_z(const Eigen::VectorXd& z1, double sigma) {
  Eigen::VectorXd p(z1.size());
  for (Eigen::Index i = 0; i < z1.size(); ++i)
    p[i] = 0.5 * std::erfc(-(z1[i] / sigma) / std::sqrt(2.0));
  return p;
}

// B·L draws at θ_priv on the grid (smoothed if asked): the only input of the release.
// `prior_on_grid` (2-D, dense sampler, with the pair's grid `distances`): K(grid, grid) at θ_priv's
// ℓ, the same for every pair, so the exact dense draw N(μ_D, σ² (K(grid, grid) − V Vᵀ)) costs one
// Cholesky of K + r² I, one trsm, one syrk and the m x m factorisation (factor_psd, as the dense
// sampler); otherwise the sampler dispatch of sample() (the Markov engine in 1-D).
Eigen::MatrixXd private_paths(const StudySpec& spec, const ExcursionPair& pair, const Theta& theta,
                              int count, Rng& rng, std::string* method,
                              const Eigen::MatrixXd* prior_on_grid,
                              const PairwiseDistances* distances) {
  Eigen::MatrixXd values;
  if (prior_on_grid != nullptr && distances != nullptr) {
    RidgeCholesky ridge;
    ridge.refit(Kernel::exponential(theta.ell), *distances);
    Eigen::VectorXd mean;
    Eigen::VectorXd variance;
    ridge.posterior(theta.r, pair.y, mean, variance);
    Eigen::MatrixXd cov = ridge.covariance(*prior_on_grid);
    cov.triangularView<Eigen::Lower>() *= theta.sigma * theta.sigma;
    const PsdFactor factor = factor_psd(std::move(cov));
    values = draw_gaussian(mean, factor, count, rng);
    if (method != nullptr) *method = "dense";
  } else {
    const Posterior posterior = posterior_at(pair, theta);
    SampleOptions options;
    options.method = spec.sampler;
    Draws draws = sample(posterior, spec.grid, count, rng, options);
    if (method != nullptr) *method = draws.method;
    values = std::move(draws.values);
  }
  if (spec.smoothing_bandwidth > 0.0)
    return release::smooth_fields(values, spec.grid, spec.smoothing_bandwidth);
  return values;
}

// Release b of a pair's B·L paths: the vote set of columns [b L, (b + 1) L), by the release's own
// post-processing (what `gpdp release` ships).
Eigen::VectorXd released_set(const Eigen::MatrixXd& paths, int L, int b, double t, double cutoff) {
  const auto first = static_cast<Eigen::Index>(b) * L;
  return release::vote_set(release::vote_fraction(paths.middleCols(first, L), t), cutoff);
}
}  // namespace

Quartiles quartiles(std::vector<double> v) {
  require(!v.empty(), "quartiles of an empty sample");
  std::sort(v.begin(), v.end());
  auto at = [&](double q) {
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(lo + 1, v.size() - 1);
    const double frac = pos - static_cast<double>(lo);
    if (frac == 0.0) return v[lo];
    return v[lo] + frac * (v[hi] - v[lo]);
  };
  return {at(0.25), at(0.5), at(0.75)};
}

SearchGrid default_search_grid(int dim) {
  if (dim == 1) return SearchGrid::log_spaced(0.05, 20.0, 8, 0.01, 100.0, 13, 0.002, 50.0, 12);
  return SearchGrid::log_spaced(0.05, 5.0, 6, 0.03, 30.0, 9, 0.05, 20.0, 8);
}

StudyResult run_study(const StudySpec& spec_in,
                      const std::function<void(const std::string&)>& progress) {
  StudyResult result;
  result.spec = spec_in;
  StudySpec& spec = result.spec;
  require(spec.dim == 1 || spec.dim == 2, "study: dimension must be 1 or 2");
  require(spec.grid.dim() == spec.dim,
          "study: the evaluation grid dimension differs from the field's");
  require(spec.pairs >= 1 && spec.validation_pairs >= 1,
          "study: needs at least one pair of each kind");
  require(spec.releases >= 2, "study: B ≥ 2 releases per pair (for the SD)");
  spec.threads = resolve_threads(spec.threads);
  spec.privacy.dim = spec.dim;
  spec.privacy.n = spec.dim == 1 ? spec.field1d.n : spec.field2d.n;
  if (spec.probability_cutoffs.empty()) {
    for (int k = 1; k <= 19; ++k) spec.probability_cutoffs.push_back(0.05 * k);
  }
  auto say = [&](const std::string& s) {
    if (progress) progress(fmt::format("[{}] {}", spec.label, s));
  };
  const int L = spec.privacy.paths;

  auto t0 = Clock::now();
  const auto grid_points = std::make_shared<const Points>(spec.grid.points());
  const auto weights = std::make_shared<const Eigen::VectorXd>(trapezoid_weights(spec.grid));
  const auto population = generate_population(spec, spec.pairs, kPopulationStream);
  const auto validation = generate_population(spec, spec.validation_pairs, kValidationStream);
  result.seconds_generate = seconds_since(t0);
  say(fmt::format("{} pairs + {} validation pairs generated ({:.1f} s)", spec.pairs,
                  spec.validation_pairs, result.seconds_generate));

  // 2. Searches (shared cache).
  t0 = Clock::now();
  const double t = 0.0;
  const ExcursionObjective objective(to_tasks(population, grid_points, weights), t, spec.threads,
                                     spec.search_route);
  HyperparameterSearch search(objective, spec.search, [&](const std::string& s) { say(s); });
  const PrivacyConstraint constraint = spec.privacy.constraint(spec.epsilon_max);
  const auto searches = search.run_together({nullptr, &constraint});
  const SearchResult& best = searches[0];
  const SearchResult& best_private = searches[1];
  result.theta_unconstrained = best.best;
  result.theta_private = best_private.best;
  result.epsilon_unconstrained = spec.privacy.epsilon(best.best);
  result.epsilon_private = spec.privacy.epsilon(best_private.best);
  require(result.epsilon_private < spec.epsilon_max,
          "study: constrained search returned an infeasible θ");
  result.distinct_thetas = search.distinct_evaluations();
  result.distinct_posteriors = search.distinct_posteriors();
  result.reductions_per_pair =
      static_cast<double>(objective.reductions()) / static_cast<double>(spec.pairs);
  result.cholesky_per_pair =
      static_cast<double>(objective.cholesky_fits()) / static_cast<double>(spec.pairs);
  result.seconds_search = seconds_since(t0);
  say(
      fmt::format("searches done: {} distinct θ, per pair {:.1f} decompositions + {:.1f} "
                  "Cholesky ({:.1f} s); ε(θ*) = {:.4g}, ε(θ_priv) = {:.4g}",
                  result.distinct_thetas, result.reductions_per_pair, result.cholesky_per_pair,
                  result.seconds_search, result.epsilon_unconstrained, result.epsilon_private));

  // 3. Validation: C at θ*, c at θ_priv.
  t0 = Clock::now();
  std::optional<Eigen::MatrixXd> prior_on_grid;  // K(grid, grid) at θ_priv (2-D dense draws)
  if (spec.dim >= 2 &&
      (spec.sampler == SamplerMethod::Auto || spec.sampler == SamplerMethod::Dense)) {
    prior_on_grid = Kernel::exponential(result.theta_private.ell).gram(*grid_points);
  }
  const Eigen::MatrixXd* shared_prior = prior_on_grid ? &*prior_on_grid : nullptr;
  const auto nC = static_cast<Eigen::Index>(spec.probability_cutoffs.size());
  Eigen::MatrixXd iou_C(static_cast<Eigen::Index>(validation.size()), nC);
  Eigen::MatrixXd iou_c(static_cast<Eigen::Index>(validation.size()), L);
  const SeededRng base(spec.seed);
  const int validation_releases = std::max(1, std::min(spec.releases, 10));
  parallel_for(static_cast<long>(validation.size()), spec.threads, [&](long j) {
    const auto& pair = validation[static_cast<std::size_t>(j)];
    const ExcursionTask task{pair.X, pair.y, grid_points, weights, pair.truth};
    const auto distances = grid_distances(spec, pair, *grid_points);
    const PairwiseDistances* d = distances ? &*distances : nullptr;
    const Eigen::VectorXd p = probability_from_z(z_at(task, result.theta_unconstrained, t, d),
                                                 result.theta_unconstrained.sigma);
    for (Eigen::Index k = 0; k < nC; ++k) {
      iou_C(j, k) = intersection_over_union(
          indicator_at_least(p, spec.probability_cutoffs[static_cast<std::size_t>(k)]), pair.truth,
          *weights);
    }
    if (L > 1) {  // with one path every c ∈ (0, 1] gives the same set
      SeededRng rng = base.split(kValidationReleaseStream + static_cast<std::uint64_t>(j));
      const Eigen::MatrixXd paths = private_paths(
          spec, pair, result.theta_private, validation_releases * L, rng, nullptr, shared_prior, d);
      for (int k = 1; k <= L; ++k) {
        double sum = 0.0;
        for (int b = 0; b < validation_releases; ++b) {
          sum += intersection_over_union(released_set(paths, L, b, t, static_cast<double>(k) / L),
                                         pair.truth, *weights);
        }
        iou_c(j, k - 1) = sum / validation_releases;
      }
    } else {
      iou_c(j, 0) = 0.0;
    }
  });
  Eigen::Index bestC = 0;
  iou_C.colwise().mean().maxCoeff(&bestC);
  result.cutoff_C = spec.probability_cutoffs[static_cast<std::size_t>(bestC)];
  result.validation_iou_C = iou_C.col(bestC).mean();
  Eigen::Index bestc = 0;
  if (L > 1) iou_c.colwise().mean().maxCoeff(&bestc);
  result.cutoff_c = static_cast<double>(bestc + 1) / L;
  result.validation_iou_c = iou_c.col(bestc).mean();
  result.seconds_validation = seconds_since(t0);
  say(fmt::format("validation: C = {:.2f} (mean IoU {:.4f}), c = {:.3f} ({:.1f} s)",
                  result.cutoff_C, result.validation_iou_C, result.cutoff_c,
                  result.seconds_validation));

  // 4. Outcomes on the population.
  t0 = Clock::now();
  result.pairs.resize(population.size());
  const int keep = static_cast<int>(std::min<long>(spec.keep_examples, spec.pairs));
  result.examples.resize(static_cast<std::size_t>(keep));
  std::vector<std::string> methods(population.size());
  parallel_for(static_cast<long>(population.size()), spec.threads, [&](long j) {
    const auto& pair = population[static_cast<std::size_t>(j)];
    auto& out = result.pairs[static_cast<std::size_t>(j)];
    const Posterior unc = posterior_at(pair, result.theta_unconstrained);
    const Posterior priv = posterior_at(pair, result.theta_private);
    out.d_eff_unconstrained = unc.effective_dimension();
    out.d_eff_private = priv.effective_dimension();
    out.bce_unconstrained = best.per_task[j];
    out.bce_private = best_private.per_task[j];
    const ExcursionTask task{pair.X, pair.y, grid_points, weights, pair.truth};
    const auto distances = grid_distances(spec, pair, *grid_points);
    const PairwiseDistances* d = distances ? &*distances : nullptr;
    const Eigen::VectorXd p = probability_from_z(z_at(task, result.theta_unconstrained, t, d),
                                                 result.theta_unconstrained.sigma);
    const Eigen::VectorXd set_unc = indicator_at_least(p, result.cutoff_C);
    out.iou_unconstrained = intersection_over_union(set_unc, pair.truth, *weights);
    SeededRng rng = base.split(kReleaseStream + static_cast<std::uint64_t>(j));
    const Eigen::MatrixXd paths =
        private_paths(spec, pair, result.theta_private, spec.releases * L, rng,
                      &methods[static_cast<std::size_t>(j)], shared_prior, d);
    Eigen::VectorXd ious(spec.releases);
    for (int b = 0; b < spec.releases; ++b) {
      ious[b] = intersection_over_union(released_set(paths, L, b, t, result.cutoff_c), pair.truth,
                                        *weights);
    }
    out.iou_release_mean = ious.mean();
    out.iou_release_sd =
        std::sqrt((ious.array() - ious.mean()).square().sum() / (spec.releases - 1));
    if (j < keep) {
      auto& ex = result.examples[static_cast<std::size_t>(j)];
      ex.pair = pair;
      ex.p_unconstrained = p;
      ex.releases.resize(p.size(), 3);
      for (int b = 0; b < 3 && b < spec.releases; ++b) {
        ex.releases.col(b) = released_set(paths, L, b, t, result.cutoff_c);
      }
    }
  });
  result.sampler_method = methods.front();
  result.seconds_release = seconds_since(t0);
  say(fmt::format("{} pairs x B = {} releases of L = {} path(s) by '{}' ({:.1f} s)", spec.pairs,
                  spec.releases, L, result.sampler_method, result.seconds_release));
  return result;
}

}  // namespace gpdp::experiments
