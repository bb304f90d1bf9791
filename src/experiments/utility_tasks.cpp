// The utility study's task functions: what a worker runs for one chunk of pairs. A worker keeps
// the pairs (and the search's per-pair state) of the study it last worked on, so that the next
// phase or search round on the same chunk in the same process reuses them; a chunk it has not
// seen is regenerated from (seed, j), and a search chunk replays the earlier rounds' calls
// (listed in its params), which makes its state, and so its result, the same either way.
#include "gpdp/experiments/utility_tasks.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "gpdp/experiments/metrics.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/posteriors/ridge_cholesky.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/samplers/dense.hpp"
#include "study_json.hpp"
#include "utility_chunks.hpp"

namespace gpdp::experiments {

namespace {
using nlohmann::json;
using namespace chunks;

// ---- one pair's computations ------------------------------------------------------------------

ExcursionPair generate(const StudySpec& spec, Rng& rng) {
  return spec.dim == 1 ? generate_field_1d(spec.field1d, spec.grid, rng)
                       : generate_plume_2d(spec.field2d, spec.grid, rng);
}

// z₁ at one θ: the Markov engine in 1-D (O(n + m)); given the pair's grid distances (2-D), one
// Cholesky on them (BLAS trsm: about 4x faster than Posterior's for n = 400, m = 1600).
Eigen::VectorXd z_at(const ExcursionTask& task, const Theta& t,
                     const PairwiseDistances* distances) {
  if (distances == nullptr) return excursion_z(task, t.ell, t.r, kThreshold);
  RidgeCholesky ridge(*distances, task.y);
  ridge.refit(Kernel::exponential(t.ell));
  return ridge.excursion_z({t.r}, kThreshold).col(0);
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

// Release b of a pair's B·L paths: the vote set of columns [b L, (b + 1) L), by the release's own
// post-processing (what `gpdp release` ships).
Eigen::VectorXd released_set(const Eigen::MatrixXd& paths, int L, int b, double cutoff) {
  const auto first = static_cast<Eigen::Index>(b) * L;
  return release::vote_set(release::vote_fraction(paths.middleCols(first, L), kThreshold), cutoff);
}

// ---- what a worker keeps: the study it last worked on -----------------------------------------

// One chunk's pairs and, for the search, its objective and the number of calls made on it.
struct ChunkState {
  std::mutex mutex;
  std::vector<ExcursionPair> pairs;
  std::unique_ptr<ExcursionObjective> objective;
  std::size_t calls = 0;
};

class StudyState {
 public:
  explicit StudyState(const json& spec)
      : spec_(study_spec_from_json(spec)),
        grid_points_(std::make_shared<const Points>(spec_.grid.points())),
        weights_(std::make_shared<const Eigen::VectorXd>(trapezoid_weights(spec_.grid))) {}

  const StudySpec& spec() const { return spec_; }
  const std::shared_ptr<const Points>& grid_points() const { return grid_points_; }
  const std::shared_ptr<const Eigen::VectorXd>& weights() const { return weights_; }
  int paths() const { return spec_.privacy.paths; }

  // The chunk of `params` (stream, first, last), its pairs generated if new; locked by the caller
  // through its mutex.
  std::shared_ptr<ChunkState> chunk(const json& params) {
    const auto stream = params.at("stream").get<std::uint64_t>();
    const long first = params.at("first").get<long>();
    const long last = params.at("last").get<long>();
    std::shared_ptr<ChunkState> state;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      auto& slot = chunks_[{stream, first, last}];
      if (!slot) slot = std::make_shared<ChunkState>();
      state = slot;
    }
    const std::lock_guard<std::mutex> lock(state->mutex);
    if (state->pairs.empty()) {
      const SeededRng base(spec_.seed);
      for (long j = first; j < last; ++j) {
        SeededRng rng = base.split(stream + static_cast<std::uint64_t>(j));
        state->pairs.push_back(generate(spec_, rng));
      }
    }
    return state;
  }

  // K(grid, grid) at θ's ℓ when the 2-D draws are dense (the same for every pair), else null.
  const Eigen::MatrixXd* shared_prior(const Theta& theta) {
    if (spec_.dim < 2 ||
        (spec_.sampler != SamplerMethod::Auto && spec_.sampler != SamplerMethod::Dense)) {
      return nullptr;
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    auto& prior = priors_[log_key(theta.ell)];
    if (!prior) prior.emplace(Kernel::exponential(theta.ell).gram(*grid_points_));
    return &*prior;
  }

  // The pair's distances to the grid, shared by its z₁ and its draws (2-D only).
  std::optional<PairwiseDistances> grid_distances(const ExcursionPair& pair) const {
    if (spec_.dim < 2) return std::nullopt;
    return PairwiseDistances(pair.X, *grid_points_);
  }

 private:
  struct ChunkKey {
    std::uint64_t stream;
    long first, last;
    auto operator<=>(const ChunkKey&) const = default;
  };
  StudySpec spec_;
  std::shared_ptr<const Points> grid_points_;
  std::shared_ptr<const Eigen::VectorXd> weights_;
  std::mutex mutex_;
  std::map<ChunkKey, std::shared_ptr<ChunkState>> chunks_;
  std::map<long long, std::optional<Eigen::MatrixXd>> priors_;
};

// What this process keeps: the state of the study its tasks last worked on.
struct KeptStudy {
  std::mutex mutex;
  std::string key;  // the study's spec as JSON text
  std::shared_ptr<StudyState> state;
};
KeptStudy& kept_study() {
  static KeptStudy kept;
  return kept;
}

// The state of the study of `params` ("spec"); a task of another study drops the previous one.
std::shared_ptr<StudyState> study_state(const json& params) {
  KeptStudy& kept = kept_study();
  const std::string key = params.at("spec").dump();
  const std::lock_guard<std::mutex> lock(kept.mutex);
  if (!kept.state || key != kept.key) {
    kept.state = std::make_shared<StudyState>(params.at("spec"));
    kept.key = key;
  }
  return kept.state;
}

// ---- the task functions -----------------------------------------------------------------------

// utility.generate {spec, stream, first, last}: the chunk's pairs (kept for the later phases).
json generate_task(const json& params) {
  const auto chunk = study_state(params)->chunk(params);
  return {{"pairs", chunk->pairs.size()}};
}

// utility.search {spec, stream, first, last, history, call}: the chunk's L_BCE (chunk pairs x
// thetas) of `call`, after the earlier calls `history` of this search. Only the hybrid route keeps
// state between calls (kept z₁): an objective that has not made exactly those calls is rebuilt and
// replays them.
json search_task(const json& params) {
  const auto study = study_state(params);
  const auto chunk = study->chunk(params);
  const std::lock_guard<std::mutex> lock(chunk->mutex);
  const auto& history = params.at("history");
  const PosteriorRoute route = resolved_route(study->spec().search_route, study->spec().dim);
  const bool stateful = route == PosteriorRoute::Hybrid;
  if (!chunk->objective || (stateful && chunk->calls != history.size())) {
    std::vector<ExcursionTask> tasks;
    for (const auto& p : chunk->pairs)
      tasks.push_back({p.X, p.y, study->grid_points(), study->weights(), p.truth});
    chunk->objective = std::make_unique<ExcursionObjective>(std::move(tasks), kThreshold, 1, route);
    chunk->calls = 0;
    for (std::size_t k = 0; stateful && k < history.size(); ++k, ++chunk->calls)
      evaluate_call(*chunk->objective, history[k]);
  }
  const long reductions = chunk->objective->reductions();
  const long fits = chunk->objective->single_ridge_fits();
  const Eigen::MatrixXd bce = evaluate_call(*chunk->objective, params.at("call"));
  ++chunk->calls;
  return {{"bce", matrix_to_json(bce)},
          {"reductions", chunk->objective->reductions() - reductions},
          {"single_ridge_fits", chunk->objective->single_ridge_fits() - fits}};
}

// p_D at θ* on the grid for one pair (its grid distances in 2-D).
Eigen::VectorXd unconstrained_probability(const StudyState& study, const ExcursionPair& pair,
                                          const Theta& theta, const PairwiseDistances* d) {
  const ExcursionTask task{pair.X, pair.y, study.grid_points(), study.weights(), pair.truth};
  return probability_from_z(z_at(task, theta, d), theta.sigma);
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

// One validation pair j: the IoU of {p_D ≥ C} at θ* for every candidate C, and the mean IoU over
// releases of the L-path vote at θ_priv for every c = k/L.
json validation_ious(StudyState& study, const Theta& free, const Theta& priv, long j,
                     const ExcursionPair& pair) {
  const StudySpec& spec = study.spec();
  const int L = study.paths();
  const auto distances = study.grid_distances(pair);
  const PairwiseDistances* d = distances ? &*distances : nullptr;
  const Eigen::VectorXd p = unconstrained_probability(study, pair, free, d);
  std::vector<double> iou_C;
  for (const double C : spec.probability_cutoffs)
    iou_C.push_back(
        intersection_over_union(indicator_at_least(p, C), pair.truth, *study.weights()));
  if (L <= 1)
    return {{"iou_C", iou_C}, {"iou_c", json::array({0.0})}};  // one path: every c gives one set
  const int releases = std::max(1, std::min(spec.releases, 10));
  SeededRng rng =
      SeededRng(spec.seed).split(kValidationReleaseStream + static_cast<std::uint64_t>(j));
  const Eigen::MatrixXd paths =
      private_paths(spec, pair, priv, releases * L, rng, nullptr, study.shared_prior(priv), d);
  std::vector<double> iou_c;
  for (int k = 1; k <= L; ++k) {
    double sum = 0.0;
    for (int b = 0; b < releases; ++b) {
      sum += intersection_over_union(released_set(paths, L, b, static_cast<double>(k) / L),
                                     pair.truth, *study.weights());
    }
    iou_c.push_back(sum / releases);
  }
  return {{"iou_C", iou_C}, {"iou_c", iou_c}};
}

// utility.validation {spec, stream, first, last, theta_unconstrained, theta_private}: per pair
// of the chunk, the rows of the validation IoUs (validation_ious).
json validation_task(const json& params) {
  const auto study = study_state(params);
  const auto chunk = study->chunk(params);
  const std::lock_guard<std::mutex> lock(chunk->mutex);
  const Theta free = theta_from_json(params.at("theta_unconstrained"));
  const Theta priv = theta_from_json(params.at("theta_private"));
  const long first = params.at("first").get<long>();
  json rows = json::array();
  for (std::size_t k = 0; k < chunk->pairs.size(); ++k) {
    rows.push_back(
        validation_ious(*study, free, priv, first + static_cast<long>(k), chunk->pairs[k]));
  }
  return rows;
}

// One population pair j: d_eff at both θ, the IoU of {p_D ≥ C} at θ*, and B private releases at
// θ_priv (their IoU mean and SD; the first three sets kept as an example if asked).
json pair_outcome(StudyState& study, const json& params, long j, const ExcursionPair& pair) {
  const StudySpec& spec = study.spec();
  const int L = study.paths();
  const Theta free = theta_from_json(params.at("theta_unconstrained"));
  const Theta priv = theta_from_json(params.at("theta_private"));
  const double cutoff_C = params.at("cutoff_C").get<double>();
  const double cutoff_c = params.at("cutoff_c").get<double>();
  const auto distances = study.grid_distances(pair);
  const PairwiseDistances* d = distances ? &*distances : nullptr;
  const Eigen::VectorXd p = unconstrained_probability(study, pair, free, d);
  SeededRng rng = SeededRng(spec.seed).split(kReleaseStream + static_cast<std::uint64_t>(j));
  std::string method;
  const Eigen::MatrixXd paths =
      private_paths(spec, pair, priv, spec.releases * L, rng, &method, study.shared_prior(priv), d);
  Eigen::VectorXd ious(spec.releases);
  for (int b = 0; b < spec.releases; ++b) {
    ious[b] =
        intersection_over_union(released_set(paths, L, b, cutoff_c), pair.truth, *study.weights());
  }
  json out = {{"d_eff_unconstrained", posterior_at(pair, free).effective_dimension()},
              {"d_eff_private", posterior_at(pair, priv).effective_dimension()},
              {"iou_unconstrained", intersection_over_union(indicator_at_least(p, cutoff_C),
                                                            pair.truth, *study.weights())},
              {"iou_release_mean", ious.mean()},
              {"iou_release_sd",
               std::sqrt((ious.array() - ious.mean()).square().sum() / (spec.releases - 1))},
              {"method", method}};
  if (j < spec.keep_examples) {
    Eigen::MatrixXd sets = Eigen::MatrixXd::Zero(p.size(), 3);
    for (int b = 0; b < 3 && b < spec.releases; ++b)
      sets.col(b) = released_set(paths, L, b, cutoff_c);
    out["example"] = {{"X", matrix_to_json(pair.X)},
                      {"y", matrix_to_json(pair.y)},
                      {"field", matrix_to_json(pair.field)},
                      {"truth", matrix_to_json(pair.truth)},
                      {"p", matrix_to_json(p)},
                      {"releases", matrix_to_json(sets)}};
  }
  return out;
}

// utility.release {spec, stream, first, last, theta_unconstrained, theta_private, cutoff_C,
// cutoff_c}: pair_outcome of every pair of the chunk.
json release_task(const json& params) {
  const auto study = study_state(params);
  const auto chunk = study->chunk(params);
  const std::lock_guard<std::mutex> lock(chunk->mutex);
  const long first = params.at("first").get<long>();
  json rows = json::array();
  for (std::size_t k = 0; k < chunk->pairs.size(); ++k)
    rows.push_back(pair_outcome(*study, params, first + static_cast<long>(k), chunk->pairs[k]));
  return rows;
}
}  // namespace

void forget_utility_task_state() {
  KeptStudy& kept = kept_study();
  const std::lock_guard<std::mutex> lock(kept.mutex);
  kept.state.reset();
  kept.key.clear();
}

std::vector<tasks::TaskKind> utility_tasks() {
  return {{kGenerate, &generate_task},
          {kSearch, &search_task},
          {kValidation, &validation_task},
          {kRelease, &release_task}};
}

}  // namespace gpdp::experiments
