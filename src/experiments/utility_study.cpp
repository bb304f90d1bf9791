#include "gpdp/experiments/utility_study.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>

#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/posteriors/ridge_cholesky.hpp"
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
  RidgeCholesky ridge(*distances, task.y);
  ridge.refit(Kernel::exponential(t.ell));
  return ridge.excursion_z({t.r}, threshold).col(0);
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
    RidgeCholesky ridge(*distances, pair.y);
    ridge.refit(Kernel::exponential(theta.ell));
    Eigen::VectorXd mean;
    Eigen::VectorXd variance;
    ridge.moments(theta.r, mean, variance);
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

// ---- the steps of run_study
// ----------------------------------------------------------------------

// The spec as run: checked, with the defaults filled in.
StudySpec completed_spec(StudySpec spec) {
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
  return spec;
}

// What the steps share: the spec, the grid with its quadrature weights, the excursion threshold,
// the seed of the per-pair streams, and the progress callback.
struct Study {
  const StudySpec& spec;
  std::shared_ptr<const Points> grid_points;
  std::shared_ptr<const Eigen::VectorXd> weights;
  double t;
  SeededRng base;
  std::function<void(const std::string&)> say;
  int paths() const { return spec.privacy.paths; }
};

// 2. θ* and θ_priv: the two searches in lockstep on the population (sharing their cache).
std::vector<SearchResult> search_thetas(const Study& study,
                                        const std::vector<ExcursionPair>& population,
                                        StudyResult& result) {
  const StudySpec& spec = study.spec;
  const auto t0 = Clock::now();
  const ExcursionObjective objective(to_tasks(population, study.grid_points, study.weights),
                                     study.t, spec.threads, spec.search_route);
  HyperparameterSearch search(objective, spec.search, study.say);
  const PrivacyConstraint constraint = spec.privacy.constraint(spec.epsilon_max);
  auto searches = search.run_together({nullptr, &constraint});
  result.theta_unconstrained = searches[0].best;
  result.theta_private = searches[1].best;
  result.epsilon_unconstrained = spec.privacy.epsilon(searches[0].best);
  result.epsilon_private = spec.privacy.epsilon(searches[1].best);
  require(result.epsilon_private < spec.epsilon_max,
          "study: constrained search returned an infeasible θ");
  result.distinct_thetas = search.distinct_evaluations();
  result.distinct_posteriors = search.distinct_posteriors();
  const auto pairs = static_cast<double>(spec.pairs);
  result.reductions_per_pair = static_cast<double>(objective.reductions()) / pairs;
  result.single_ridge_fits_per_pair = static_cast<double>(objective.single_ridge_fits()) / pairs;
  result.seconds_search = seconds_since(t0);
  study.say(fmt::format(
      "searches done: {} distinct θ, per pair {:.1f} reductions + {:.1f} single-ridge posterior "
      "fits ({:.1f} s); ε(θ*) = {:.4g}, ε(θ_priv) = {:.4g}",
      result.distinct_thetas, result.reductions_per_pair, result.single_ridge_fits_per_pair,
      result.seconds_search, result.epsilon_unconstrained, result.epsilon_private));
  return searches;
}

// K(grid, grid) at θ_priv's ℓ when the 2-D draws are dense (the same for every pair), else none.
std::optional<Eigen::MatrixXd> shared_prior_on_grid(const Study& study, const Theta& theta) {
  const StudySpec& spec = study.spec;
  if (spec.dim >= 2 &&
      (spec.sampler == SamplerMethod::Auto || spec.sampler == SamplerMethod::Dense)) {
    return Kernel::exponential(theta.ell).gram(*study.grid_points);
  }
  return std::nullopt;
}

// p_D at θ* on the grid for one pair (its grid distances in 2-D).
Eigen::VectorXd unconstrained_probability(const Study& study, const ExcursionPair& pair,
                                          const Theta& theta, const PairwiseDistances* d) {
  const ExcursionTask task{pair.X, pair.y, study.grid_points, study.weights, pair.truth};
  return probability_from_z(z_at(task, theta, study.t, d), theta.sigma);
}

// One validation pair: the IoU of {p_D ≥ C} at θ* for every candidate C (row of iou_C), and the
// mean IoU over releases of the L-path vote at θ_priv for every c = k/L (row of iou_c).
void validation_ious(const Study& study, const StudyResult& result, long j,
                     const ExcursionPair& pair, const Eigen::MatrixXd* shared_prior,
                     Eigen::MatrixXd& iou_C, Eigen::MatrixXd& iou_c) {
  const StudySpec& spec = study.spec;
  const int L = study.paths();
  const auto distances = grid_distances(spec, pair, *study.grid_points);
  const PairwiseDistances* d = distances ? &*distances : nullptr;
  const Eigen::VectorXd p = unconstrained_probability(study, pair, result.theta_unconstrained, d);
  for (Eigen::Index k = 0; k < iou_C.cols(); ++k) {
    iou_C(j, k) = intersection_over_union(
        indicator_at_least(p, spec.probability_cutoffs[static_cast<std::size_t>(k)]), pair.truth,
        *study.weights);
  }
  if (L <= 1) {  // with one path every c ∈ (0, 1] gives the same set
    iou_c(j, 0) = 0.0;
    return;
  }
  const int releases = std::max(1, std::min(spec.releases, 10));
  SeededRng rng = study.base.split(kValidationReleaseStream + static_cast<std::uint64_t>(j));
  const Eigen::MatrixXd paths =
      private_paths(spec, pair, result.theta_private, releases * L, rng, nullptr, shared_prior, d);
  for (int k = 1; k <= L; ++k) {
    double sum = 0.0;
    for (int b = 0; b < releases; ++b) {
      sum += intersection_over_union(released_set(paths, L, b, study.t, static_cast<double>(k) / L),
                                     pair.truth, *study.weights);
    }
    iou_c(j, k - 1) = sum / releases;
  }
}

// 3. The cutoffs on the validation population: C maximising the mean IoU of {p_D ≥ C} at θ*, and
// c maximising that of the L-path vote at θ_priv.
void choose_cutoffs(const Study& study, const std::vector<ExcursionPair>& validation,
                    const Eigen::MatrixXd* shared_prior, StudyResult& result) {
  const StudySpec& spec = study.spec;
  const int L = study.paths();
  Eigen::MatrixXd iou_C(static_cast<Eigen::Index>(validation.size()),
                        static_cast<Eigen::Index>(spec.probability_cutoffs.size()));
  Eigen::MatrixXd iou_c(static_cast<Eigen::Index>(validation.size()), L);
  parallel_for(static_cast<long>(validation.size()), spec.threads, [&](long j) {
    validation_ious(study, result, j, validation[static_cast<std::size_t>(j)], shared_prior, iou_C,
                    iou_c);
  });
  Eigen::Index bestC = 0;
  iou_C.colwise().mean().maxCoeff(&bestC);
  result.cutoff_C = spec.probability_cutoffs[static_cast<std::size_t>(bestC)];
  result.validation_iou_C = iou_C.col(bestC).mean();
  Eigen::Index bestc = 0;
  if (L > 1) iou_c.colwise().mean().maxCoeff(&bestc);
  result.cutoff_c = static_cast<double>(bestc + 1) / L;
  result.validation_iou_c = iou_c.col(bestc).mean();
}

// 4. One population pair: d_eff and BCE at both θ, the IoU of {p_D ≥ C} at θ*, and B private
// releases at θ_priv (their IoU mean and SD; the first three sets kept as an example if asked).
void pair_outcome(const Study& study, const std::vector<SearchResult>& searches, long j,
                  const ExcursionPair& pair, const Eigen::MatrixXd* shared_prior,
                  StudyResult& result, std::string& method) {
  const StudySpec& spec = study.spec;
  const int L = study.paths();
  auto& out = result.pairs[static_cast<std::size_t>(j)];
  out.d_eff_unconstrained = posterior_at(pair, result.theta_unconstrained).effective_dimension();
  out.d_eff_private = posterior_at(pair, result.theta_private).effective_dimension();
  out.bce_unconstrained = searches[0].per_task[j];
  out.bce_private = searches[1].per_task[j];
  const auto distances = grid_distances(spec, pair, *study.grid_points);
  const PairwiseDistances* d = distances ? &*distances : nullptr;
  const Eigen::VectorXd p = unconstrained_probability(study, pair, result.theta_unconstrained, d);
  out.iou_unconstrained =
      intersection_over_union(indicator_at_least(p, result.cutoff_C), pair.truth, *study.weights);
  SeededRng rng = study.base.split(kReleaseStream + static_cast<std::uint64_t>(j));
  const Eigen::MatrixXd paths = private_paths(spec, pair, result.theta_private, spec.releases * L,
                                              rng, &method, shared_prior, d);
  Eigen::VectorXd ious(spec.releases);
  for (int b = 0; b < spec.releases; ++b) {
    ious[b] = intersection_over_union(released_set(paths, L, b, study.t, result.cutoff_c),
                                      pair.truth, *study.weights);
  }
  out.iou_release_mean = ious.mean();
  out.iou_release_sd = std::sqrt((ious.array() - ious.mean()).square().sum() / (spec.releases - 1));
  if (j < static_cast<long>(result.examples.size())) {
    auto& ex = result.examples[static_cast<std::size_t>(j)];
    ex.pair = pair;
    ex.p_unconstrained = p;
    ex.releases.resize(p.size(), 3);
    for (int b = 0; b < 3 && b < spec.releases; ++b) {
      ex.releases.col(b) = released_set(paths, L, b, study.t, result.cutoff_c);
    }
  }
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
  result.spec = completed_spec(spec_in);
  const StudySpec& spec = result.spec;
  const Study study{spec,
                    std::make_shared<const Points>(spec.grid.points()),
                    std::make_shared<const Eigen::VectorXd>(trapezoid_weights(spec.grid)),
                    0.0,
                    SeededRng(spec.seed),
                    [&](const std::string& s) {
                      if (progress) progress(fmt::format("[{}] {}", spec.label, s));
                    }};

  // 1. The population and the validation population.
  auto t0 = Clock::now();
  const auto population = generate_population(spec, spec.pairs, kPopulationStream);
  const auto validation = generate_population(spec, spec.validation_pairs, kValidationStream);
  result.seconds_generate = seconds_since(t0);
  study.say(fmt::format("{} pairs + {} validation pairs generated ({:.1f} s)", spec.pairs,
                        spec.validation_pairs, result.seconds_generate));

  // 2. θ* and θ_priv.
  const std::vector<SearchResult> searches = search_thetas(study, population, result);

  // 3. Validation: C at θ*, c at θ_priv.
  t0 = Clock::now();
  const std::optional<Eigen::MatrixXd> prior = shared_prior_on_grid(study, result.theta_private);
  const Eigen::MatrixXd* shared_prior = prior ? &*prior : nullptr;
  choose_cutoffs(study, validation, shared_prior, result);
  result.seconds_validation = seconds_since(t0);
  study.say(fmt::format("validation: C = {:.2f} (mean IoU {:.4f}), c = {:.3f} ({:.1f} s)",
                        result.cutoff_C, result.validation_iou_C, result.cutoff_c,
                        result.seconds_validation));

  // 4. Outcomes on the population.
  t0 = Clock::now();
  result.pairs.resize(population.size());
  result.examples.resize(static_cast<std::size_t>(std::min<long>(spec.keep_examples, spec.pairs)));
  std::vector<std::string> methods(population.size());
  parallel_for(static_cast<long>(population.size()), spec.threads, [&](long j) {
    pair_outcome(study, searches, j, population[static_cast<std::size_t>(j)], shared_prior, result,
                 methods[static_cast<std::size_t>(j)]);
  });
  result.sampler_method = methods.front();
  result.seconds_release = seconds_since(t0);
  study.say(fmt::format("{} pairs x B = {} releases of L = {} path(s) by '{}' ({:.1f} s)",
                        spec.pairs, spec.releases, spec.privacy.paths, result.sampler_method,
                        result.seconds_release));
  return result;
}

}  // namespace gpdp::experiments
