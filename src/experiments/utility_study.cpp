#include "gpdp/experiments/utility_study.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/parallel.hpp"
#include "study_json.hpp"
#include "utility_chunks.hpp"

namespace gpdp::experiments {

namespace {
using nlohmann::json;
using namespace chunks;
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
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

// What the steps share: the spec (and as JSON, the first param of every task), the executor, and
// the progress callback.
struct Study {
  const StudySpec& spec;
  json spec_json;
  tasks::Executor& executor;
  std::function<void(const std::string&)> say;
  int paths() const { return spec.privacy.paths; }

  // One task per chunk of `count` pairs of `stream`, each with `extra` params; about four chunks
  // per thread of spec.threads (load balance), whatever the chunking the results are the same.
  std::vector<tasks::Task> chunked(const char* kind, std::uint64_t stream, long count,
                                   const json& extra = json::object()) const {
    const long per_chunk = std::max(1L, (count + 4L * spec.threads - 1) / (4L * spec.threads));
    std::vector<tasks::Task> list;
    for (long first = 0; first < count; first += per_chunk) {
      json params = extra;
      params["spec"] = spec_json;
      params["stream"] = stream;
      params["first"] = first;
      params["last"] = std::min(count, first + per_chunk);
      list.push_back({kind, std::move(params)});
    }
    return list;
  }
  // The results of `list`, concatenated in task order (each result an array over its chunk).
  json map_rows(const std::vector<tasks::Task>& list) const {
    json rows = json::array();
    for (auto& r : executor.map(list)) {
      for (auto& row : r) rows.push_back(std::move(row));
    }
    return rows;
  }
};

// The search's objective on the population: each evaluate call is one task per chunk, reduced in
// task order. On the hybrid route, whose objective keeps state between calls, a task also lists
// the calls before it, for workers that have not made them (utility.search replays them).
class ChunkedObjective final : public BceObjective {
 public:
  explicit ChunkedObjective(const Study& study)
      : study_(study),
        stateful_(resolved_route(study.spec.search_route, study.spec.dim) ==
                  PosteriorRoute::Hybrid) {}
  Eigen::MatrixXd evaluate(const std::vector<Theta>& thetas,
                           const std::vector<std::pair<double, double>>& speculative = {},
                           bool keep = false) const override {
    json call = evaluate_call_json(thetas, speculative, keep);
    const auto list = study_.chunked(kSearch, kPopulationStream, study_.spec.pairs,
                                     {{"history", history_}, {"call", call}});
    Eigen::MatrixXd out(study_.spec.pairs, static_cast<Eigen::Index>(thetas.size()));
    Eigen::Index row = 0;
    for (const auto& r : study_.executor.map(list)) {
      const Eigen::MatrixXd bce = matrix_from_json(r.at("bce"));
      out.middleRows(row, bce.rows()) = bce;
      row += bce.rows();
      reductions_ += r.at("reductions").get<long>();
      single_ridge_fits_ += r.at("single_ridge_fits").get<long>();
    }
    if (stateful_) history_.push_back(std::move(call));
    return out;
  }
  void forget() const override { history_ = json::array(); }
  long reductions() const { return reductions_; }
  long single_ridge_fits() const { return single_ridge_fits_; }

 private:
  const Study& study_;
  bool stateful_;
  mutable json history_ = json::array();
  mutable long reductions_ = 0;
  mutable long single_ridge_fits_ = 0;
};

// 1. The population and the validation population, generated on the workers (which keep them).
void generate_populations(const Study& study, StudyResult& result) {
  const StudySpec& spec = study.spec;
  const auto t0 = Clock::now();
  auto list = study.chunked(kGenerate, kPopulationStream, spec.pairs);
  const auto validation = study.chunked(kGenerate, kValidationStream, spec.validation_pairs);
  list.insert(list.end(), validation.begin(), validation.end());
  study.executor.map(list);
  result.seconds_generate = seconds_since(t0);
  study.say(fmt::format("{} pairs + {} validation pairs generated ({:.1f} s)", spec.pairs,
                        spec.validation_pairs, result.seconds_generate));
}

// 2. θ* and θ_priv: the two searches in lockstep on the population (sharing their cache).
std::vector<SearchResult> search_thetas(const Study& study, StudyResult& result) {
  const StudySpec& spec = study.spec;
  const auto t0 = Clock::now();
  const ChunkedObjective objective(study);
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

json thetas_params(const StudyResult& result) {
  return {{"theta_unconstrained", theta_to_json(result.theta_unconstrained)},
          {"theta_private", theta_to_json(result.theta_private)}};
}

// 3. The cutoffs on the validation population: C maximising the mean IoU of {p_D ≥ C} at θ*, and
// c maximising that of the L-path vote at θ_priv.
void choose_cutoffs(const Study& study, StudyResult& result) {
  const StudySpec& spec = study.spec;
  const int L = study.paths();
  const json rows = study.map_rows(
      study.chunked(kValidation, kValidationStream, spec.validation_pairs, thetas_params(result)));
  Eigen::MatrixXd iou_C(spec.validation_pairs,
                        static_cast<Eigen::Index>(spec.probability_cutoffs.size()));
  Eigen::MatrixXd iou_c(spec.validation_pairs, L);
  for (Eigen::Index j = 0; j < spec.validation_pairs; ++j) {
    const auto& row = rows[static_cast<std::size_t>(j)];
    for (Eigen::Index k = 0; k < iou_C.cols(); ++k) iou_C(j, k) = row.at("iou_C").at(k);
    for (Eigen::Index k = 0; k < static_cast<Eigen::Index>(row.at("iou_c").size()); ++k)
      iou_c(j, k) = row.at("iou_c").at(k);
  }
  Eigen::Index bestC = 0;
  iou_C.colwise().mean().maxCoeff(&bestC);
  result.cutoff_C = spec.probability_cutoffs[static_cast<std::size_t>(bestC)];
  result.validation_iou_C = iou_C.col(bestC).mean();
  Eigen::Index bestc = 0;
  if (L > 1) iou_c.colwise().mean().maxCoeff(&bestc);
  result.cutoff_c = static_cast<double>(bestc + 1) / L;
  result.validation_iou_c = iou_c.col(bestc).mean();
}

StudyExample example_from_json(const json& j) {
  StudyExample ex;
  ex.pair.X = matrix_from_json(j.at("X"));
  ex.pair.y = matrix_from_json(j.at("y"));
  ex.pair.field = matrix_from_json(j.at("field"));
  ex.pair.truth = matrix_from_json(j.at("truth"));
  ex.p_unconstrained = matrix_from_json(j.at("p"));
  ex.releases = matrix_from_json(j.at("releases"));
  return ex;
}

// 4. Outcomes on the population: per pair d_eff, BCE (from the searches), IoU at θ* and of B
// private releases at θ_priv.
void pair_outcomes(const Study& study, const std::vector<SearchResult>& searches,
                   StudyResult& result) {
  const StudySpec& spec = study.spec;
  json params = thetas_params(result);
  params["cutoff_C"] = result.cutoff_C;
  params["cutoff_c"] = result.cutoff_c;
  const json rows = study.map_rows(study.chunked(kRelease, kPopulationStream, spec.pairs, params));
  result.pairs.resize(static_cast<std::size_t>(spec.pairs));
  for (std::size_t j = 0; j < result.pairs.size(); ++j) {
    const auto& row = rows[j];
    auto& out = result.pairs[j];
    out.d_eff_unconstrained = row.at("d_eff_unconstrained").get<double>();
    out.d_eff_private = row.at("d_eff_private").get<double>();
    out.bce_unconstrained = searches[0].per_task[static_cast<Eigen::Index>(j)];
    out.bce_private = searches[1].per_task[static_cast<Eigen::Index>(j)];
    out.iou_unconstrained = row.at("iou_unconstrained").get<double>();
    out.iou_release_mean = row.at("iou_release_mean").get<double>();
    out.iou_release_sd = row.at("iou_release_sd").get<double>();
    if (row.contains("example")) result.examples.push_back(example_from_json(row.at("example")));
  }
  result.sampler_method = rows.front().at("method").get<std::string>();
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

StudyResult run_study(const StudySpec& spec_in, tasks::Executor& executor,
                      const std::function<void(const std::string&)>& progress) {
  StudyResult result;
  result.spec = completed_spec(spec_in);
  const StudySpec& spec = result.spec;
  const Study study{spec, study_spec_to_json(spec), executor, [&](const std::string& s) {
                      if (progress) progress(fmt::format("[{}] {}", spec.label, s));
                    }};

  // 1. The population and the validation population.
  generate_populations(study, result);

  // 2. θ* and θ_priv.
  const std::vector<SearchResult> searches = search_thetas(study, result);

  // 3. Validation: C at θ*, c at θ_priv.
  auto t0 = Clock::now();
  choose_cutoffs(study, result);
  result.seconds_validation = seconds_since(t0);
  study.say(fmt::format("validation: C = {:.2f} (mean IoU {:.4f}), c = {:.3f} ({:.1f} s)",
                        result.cutoff_C, result.validation_iou_C, result.cutoff_c,
                        result.seconds_validation));

  // 4. Outcomes on the population.
  t0 = Clock::now();
  pair_outcomes(study, searches, result);
  result.seconds_release = seconds_since(t0);
  study.say(fmt::format("{} pairs x B = {} releases of L = {} path(s) by '{}' ({:.1f} s)",
                        spec.pairs, spec.releases, spec.privacy.paths, result.sampler_method,
                        result.seconds_release));
  return result;
}

}  // namespace gpdp::experiments
