#include "gpdp/experiments/search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <set>
#include <utility>

#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/posteriors/direct.hpp"
#include "gpdp/posteriors/ridge_cholesky.hpp"
#include "gpdp/posteriors/spectral.hpp"
#include "gpdp/posteriors/tridiagonal.hpp"

namespace gpdp::experiments {

Eigen::VectorXd excursion_z(const ExcursionTask& task, double ell, double r, double threshold) {
  DirectPosterior posterior(task.X, task.y, *task.eval_points);
  posterior.refit(Kernel::exponential(ell));
  return posterior.excursion_z({r}, threshold).col(0);
}

namespace {
// Refuses a search whose tasks in flight cannot fit, before any engine is built: a task holds its
// distances and one or two engines' kernel matrices and factorisations — at most 4 n x n and 4 m x
// n matrices of doubles on every route (spectral: K's eigenvectors, dsyevd's 2 n² workspace, A and
// A∘A; hybrid: the reduction's and a Cholesky's matrices) — and min(threads, tasks) run at once.
// 1-D tasks on the direct route use the O(n + m) Markov engine (all search kernels are
// exponential).
void check_search_memory(const std::vector<ExcursionTask>& tasks, int threads,
                         PosteriorRoute route) {
  double per_task = 0;
  Eigen::Index n_max = 0, m_max = 0;
  for (const auto& t : tasks) {
    const auto n = static_cast<double>(t.X.rows()), m = static_cast<double>(t.eval_points->rows());
    const bool markov =
        t.X.cols() == 1 && (route == PosteriorRoute::Auto || route == PosteriorRoute::Direct);
    if (markov) continue;
    per_task = std::max(per_task, static_cast<double>(dense_bytes(n, n, 4) + dense_bytes(m, n, 4)));
    n_max = std::max(n_max, t.X.rows());
    m_max = std::max(m_max, t.eval_points->rows());
  }
  const double concurrent =
      std::min(static_cast<double>(threads), static_cast<double>(tasks.size()));
  require_memory(
      concurrent * per_task,
      fmt::format("the hyperparameter search ({} task(s), {} at a time, n up to {}, m up "
                  "to {} evaluation points)",
                  tasks.size(), concurrent, n_max, m_max),
      "per task in flight: 4 n x n and 4 m x n matrices of doubles",
      "aggregate the records first (hexbin: a smaller n), fewer or coarser evaluation "
      "points, or fewer threads");
}
}  // namespace

ExcursionObjective::ExcursionObjective(std::vector<ExcursionTask> tasks, double threshold,
                                       int threads, PosteriorRoute route)
    : tasks_(std::move(tasks)),
      threshold_(threshold),
      threads_(resolve_threads(threads)),
      route_(route),
      kept_(tasks_.size()) {
  require(!tasks_.empty(), "excursion objective: no tasks");
  for (const auto& t : tasks_) {
    require(t.eval_points && t.weights, "excursion objective: task without evaluation points");
    require(t.truth.size() == t.eval_points->rows() && t.weights->size() == t.truth.size(),
            "excursion objective: labels, weights and evaluation points differ in size");
  }
  check_search_memory(tasks_, threads_, route_);
}

long long log_key(double v) { return std::llround(std::log(v) * 1e9); }

PosteriorRoute resolved_route(PosteriorRoute route, long dim) {
  if (route != PosteriorRoute::Auto) return route;
  return dim == 1 ? PosteriorRoute::Direct : PosteriorRoute::Hybrid;
}

namespace {
// Hybrid route: an ℓ needing at least this many ridges r gets one tridiagonal reduction
// (TridiagonalPosterior), fewer get one Cholesky each (RidgeCholesky). Measured for n = 400,
// m = 1600 on one core (bench_utility): a reduction costs about as much as 2–3 Cholesky solves
// (BM_Tridiagonal2d_PerEll ≈ 25 ms with the kernel matrices, BM_Cholesky2d_PerR ≈ 9 ms).
constexpr std::size_t kTridiagonalMinRidges = 3;

// The θ of one call grouped by ℓ, then by r (values equal up to rounding, log_key, share a group:
// refinement steps from neighbouring candidates meet at the same ℓ computed two ways). One
// posterior per (ℓ, r) and task; every σ of a group from the same z₁.
struct RGroup {
  double r;
  long long key;                     // log_key(r)
  std::vector<std::size_t> members;  // indices into the call's θ
};
struct EllGroup {
  double ell;
  long long key;  // log_key(ℓ)
  std::vector<RGroup> by_r;
  std::vector<double> extra_r;  // speculative ridges at this ℓ (not requested now)
};

std::vector<EllGroup> group_by_ell(const std::vector<Theta>& thetas) {
  std::vector<EllGroup> groups;
  for (std::size_t k = 0; k < thetas.size(); ++k) {
    const long long ell_key = log_key(thetas[k].ell);
    const long long r_key = log_key(thetas[k].r);
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const EllGroup& g) { return g.key == ell_key; });
    if (it == groups.end()) {
      groups.push_back({thetas[k].ell, ell_key, {}, {}});
      it = std::prev(groups.end());
    }
    auto jt = std::find_if(it->by_r.begin(), it->by_r.end(),
                           [&](const RGroup& g) { return g.key == r_key; });
    if (jt == it->by_r.end()) {
      it->by_r.push_back({thetas[k].r, r_key, {k}});
    } else {
      jt->members.push_back(k);
    }
  }
  return groups;
}

// Speculative (ℓ, r) join the group of their ℓ when not requested there already; speculation only
// rides along with a reduction of its ℓ, so an ℓ not requested now is ignored.
void add_speculation(std::vector<EllGroup>& groups,
                     const std::vector<std::pair<double, double>>& speculative) {
  for (const auto& [ell, r] : speculative) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const EllGroup& g) { return g.key == log_key(ell); });
    if (it == groups.end()) continue;
    const bool requested = std::any_of(it->by_r.begin(), it->by_r.end(),
                                       [&](const RGroup& g) { return g.key == log_key(r); });
    const bool listed = std::any_of(it->extra_r.begin(), it->extra_r.end(),
                                    [&](double e) { return log_key(e) == log_key(r); });
    if (!requested && !listed) it->extra_r.push_back(r);
  }
}

// One task's multi-ridge engines, created when first needed (one object per engine and task,
// refitted per ℓ so that its storage is reused); the distance-based ones share the task's
// distances, computed once.
class TaskEngines {
 public:
  explicit TaskEngines(const ExcursionTask& task) : task_(task) {}

  // The engine serving an ℓ that needs `ridges` ridges on `route` (never Auto).
  MultiRidgePosterior& engine(PosteriorRoute route, std::size_t ridges) {
    switch (route) {
      case PosteriorRoute::Spectral:
        return made(spectral_);
      case PosteriorRoute::Hybrid:
        if (ridges >= kTridiagonalMinRidges) return made(tridiagonal_);
        return made(ridge_);
      default:
        if (!direct_)
          direct_ = std::make_unique<DirectPosterior>(task_.X, task_.y, *task_.eval_points);
        return *direct_;
    }
  }

 private:
  template <class Engine>
  Engine& made(std::unique_ptr<Engine>& engine) {
    if (!distances_) distances_.emplace(task_.X, *task_.eval_points);
    if (!engine) engine = std::make_unique<Engine>(*distances_, task_.y);
    return *engine;
  }
  const ExcursionTask& task_;
  std::optional<PairwiseDistances> distances_;
  std::unique_ptr<DirectPosterior> direct_;
  std::unique_ptr<SpectralPosterior> spectral_;
  std::unique_ptr<TridiagonalPosterior> tridiagonal_;
  std::unique_ptr<RidgeCholesky> ridge_;
};

using KeptZ = std::map<std::pair<long long, long long>, Eigen::VectorXd>;

// What group_z needs besides the group: the task's route, t, whether to keep z₁, the counters.
struct GroupWork {
  PosteriorRoute route;
  double threshold;
  bool keep;
  std::atomic<long>& reductions;
  std::atomic<long>& single_ridge_fits;
};

// z₁ of every requested r of one ℓ group for one task: kept from an earlier call (hybrid route),
// or computed now by the route's engine, which also computes (and the call keeps) the group's
// speculative ridges when it reduces.
std::vector<Eigen::VectorXd> group_z(const EllGroup& group, TaskEngines& engines, KeptZ& kept,
                                     const GroupWork& work) {
  const bool hybrid = work.route == PosteriorRoute::Hybrid;
  std::vector<Eigen::VectorXd> z(group.by_r.size());
  std::vector<double> todo;          // requested ridges not kept, then the speculative ones
  std::vector<std::size_t> todo_of;  // which requested r each of the first ones is
  for (std::size_t q = 0; q < group.by_r.size(); ++q) {
    const auto found = kept.find({group.key, group.by_r[q].key});
    if (hybrid && found != kept.end()) {
      z[q] = found->second;
    } else {
      todo.push_back(group.by_r[q].r);
      todo_of.push_back(q);
    }
  }
  if (todo.empty()) return z;
  const std::size_t requested = todo.size();
  if (hybrid) {
    for (const double r : group.extra_r) {
      if (!kept.contains({group.key, log_key(r)})) todo.push_back(r);
    }
  }
  MultiRidgePosterior& engine = engines.engine(work.route, todo.size());
  if (!engine.reduces()) todo.resize(requested);  // no speculation without a reduction
  engine.refit(Kernel::exponential(group.ell));
  const Eigen::MatrixXd fresh = engine.excursion_z(todo, work.threshold);
  if (engine.reduces()) {
    work.reductions.fetch_add(1, std::memory_order_relaxed);
  } else {
    work.single_ridge_fits.fetch_add(static_cast<long>(requested), std::memory_order_relaxed);
  }
  for (std::size_t t = 0; t < requested; ++t)
    z[todo_of[t]] = fresh.col(static_cast<Eigen::Index>(t));
  if (work.keep && hybrid) {
    for (std::size_t q = 0; q < todo.size(); ++q)
      kept[{group.key, log_key(todo[q])}] = fresh.col(static_cast<Eigen::Index>(q));
  }
  return z;
}
}  // namespace

Eigen::MatrixXd ExcursionObjective::evaluate(
    const std::vector<Theta>& thetas, const std::vector<std::pair<double, double>>& speculative,
    bool keep) const {
  std::vector<EllGroup> groups = group_by_ell(thetas);
  add_speculation(groups, speculative);
  Eigen::MatrixXd out(static_cast<Eigen::Index>(tasks_.size()),
                      static_cast<Eigen::Index>(thetas.size()));
  parallel_for(static_cast<long>(tasks_.size()), threads_, [&](long i) {
    const auto& task = tasks_[static_cast<std::size_t>(i)];
    const PosteriorRoute route = resolved_route(route_, task.X.cols());
    const GroupWork work{route, threshold_, keep, reductions_, single_ridge_fits_};
    TaskEngines engines(task);
    for (const auto& group : groups) {
      const auto z = group_z(group, engines, kept_[static_cast<std::size_t>(i)], work);
      for (std::size_t q = 0; q < group.by_r.size(); ++q) {
        for (const std::size_t k : group.by_r[q].members) {
          out(i, static_cast<Eigen::Index>(k)) =
              integrated_bce_from_z(z[q] / thetas[k].sigma, task.truth, *task.weights);
        }
      }
    }
  });
  return out;
}

void ExcursionObjective::forget() const {
  for (auto& k : kept_) k.clear();
}

long ExcursionObjective::kept() const {
  long count = 0;
  for (const auto& k : kept_) count += static_cast<long>(k.size());
  return count;
}

SearchGrid SearchGrid::log_spaced(double ell_lo, double ell_hi, int n_ell, double r_lo, double r_hi,
                                  int n_r, double sigma_lo, double sigma_hi, int n_sigma) {
  auto axis = [](double lo, double hi, int n, const char* name) {
    require(lo > 0.0 && hi >= lo && n >= 1,
            fmt::format("search grid for {}: need 0 < lo ≤ hi and count ≥ 1", name));
    std::vector<double> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      v[static_cast<std::size_t>(i)] =
          n == 1 ? lo : lo * std::pow(hi / lo, static_cast<double>(i) / static_cast<double>(n - 1));
    }
    return v;
  };
  return {axis(ell_lo, ell_hi, n_ell, "ℓ"), axis(r_lo, r_hi, n_r, "r"),
          axis(sigma_lo, sigma_hi, n_sigma, "σ")};
}

SearchGrid default_search_grid(int dim) {
  if (dim == 1) return SearchGrid::log_spaced(0.05, 20.0, 8, 0.01, 100.0, 13, 0.002, 50.0, 12);
  return SearchGrid::log_spaced(0.05, 5.0, 6, 0.03, 30.0, 9, 0.05, 20.0, 8);
}

HyperparameterSearch::HyperparameterSearch(const BceObjective& objective, SearchSpec spec,
                                           std::function<void(const std::string&)> progress)
    : objective_(objective), spec_(std::move(spec)), progress_(std::move(progress)) {
  require(!spec_.coarse.ell.empty() && !spec_.coarse.r.empty() && !spec_.coarse.sigma.empty(),
          "hyperparameter search: empty coarse grid");
  require(spec_.top_k >= 1 && spec_.refinement_rounds >= 0,
          "hyperparameter search: top_k ≥ 1 and refinement_rounds ≥ 0");
}

HyperparameterSearch::Key HyperparameterSearch::key(const Theta& t) {
  return {log_key(t.ell), log_key(t.r), log_key(t.sigma)};
}

long HyperparameterSearch::distinct_posteriors() const {
  std::set<std::pair<long long, long long>> lr;
  for (const auto& [k, v] : cache_) lr.insert({k.a, k.b});
  return static_cast<long>(lr.size());
}

void HyperparameterSearch::ensure(const std::vector<Theta>& thetas,
                                  const std::vector<std::pair<double, double>>& speculative,
                                  bool keep) {
  std::vector<Theta> missing;
  for (const auto& t : thetas) {
    if (!cache_.contains(key(t))) missing.push_back(t);
  }
  if (missing.empty()) return;
  const Eigen::MatrixXd values = objective_.evaluate(missing, speculative, keep);
  for (std::size_t k = 0; k < missing.size(); ++k) {
    cache_[key(missing[k])] = values.col(static_cast<Eigen::Index>(k));
  }
}

// The searches of one run_together call: per search its constraint, the candidates it has
// evaluated (in order) and its feasible proposals of the current round; and the r-steps of the
// refinement rounds (round j multiplies r by step^(±1/2^j)).
struct HyperparameterSearch::Lockstep {
  struct Search {
    const PrivacyConstraint* constraint;
    std::vector<Theta> evaluated;
    std::vector<Theta> pending;
    const char* label() const { return constraint ? " (ε-constrained)" : ""; }
  };
  std::vector<Search> searches;
  std::vector<double> r_steps;
};

namespace {
// Geometric step of a log-spaced axis (1 when it has a single value).
double log_step(const std::vector<double>& axis) {
  if (axis.size() < 2) return 2.0;
  return std::pow(axis.back() / axis.front(), 1.0 / static_cast<double>(axis.size() - 1));
}

// The r-step of each refinement round: the coarse step halved (in log) once per round.
std::vector<double> refinement_r_steps(const std::vector<double>& coarse_r, int rounds) {
  std::vector<double> steps;
  for (double step = log_step(coarse_r); static_cast<int>(steps.size()) < rounds;) {
    step = std::sqrt(step);
    steps.push_back(step);
  }
  return steps;
}

std::vector<Theta> coarse_candidates(const SearchGrid& grid) {
  std::vector<Theta> coarse;
  for (const double ell : grid.ell) {
    for (const double r : grid.r) {
      for (const double sigma : grid.sigma) coarse.push_back({ell, r, sigma});
    }
  }
  return coarse;
}

// The (ℓ, r) that later rounds may ask for around this round's candidates `all`: each later round
// can centre on one of them and multiply r by its step^(−1, 0, 1); those ride along as speculation
// (kept z₁, no new reduction when they are asked for). Empty in the last round.
std::vector<std::pair<double, double>> speculation(const std::vector<Theta>& all,
                                                   const std::vector<double>& r_steps, int round) {
  std::vector<double> factors{1.0};  // products of later steps^(−1, 0, 1)
  for (std::size_t j = static_cast<std::size_t>(round); j < r_steps.size(); ++j) {
    std::vector<double> next;
    for (const double f : factors) {
      for (const double e : {1.0 / r_steps[j], 1.0, r_steps[j]}) next.push_back(f * e);
    }
    factors = std::move(next);
  }
  std::vector<std::pair<double, double>> speculative;
  std::set<std::pair<long long, long long>> seen;
  if (factors.size() > 1) {
    for (const auto& t : all) {
      for (const double f : factors) {
        if (seen.insert({log_key(t.ell), log_key(t.r * f)}).second)
          speculative.push_back({t.ell, t.r * f});
      }
    }
  }
  return speculative;
}
}  // namespace

// One round for every search: the feasible proposals of all of them are evaluated together, so an
// ℓ proposed by two searches is decomposed once per task.
void HyperparameterSearch::evaluate_round(Lockstep& lockstep,
                                          const std::vector<std::vector<Theta>>& proposals,
                                          const std::string& label, int round) {
  std::vector<Theta> all;
  for (std::size_t s = 0; s < lockstep.searches.size(); ++s) {
    auto& st = lockstep.searches[s];
    st.pending.clear();
    for (const auto& t : proposals[s]) {
      if (st.constraint == nullptr || st.constraint->epsilon(t) < st.constraint->epsilon_max) {
        st.pending.push_back(t);
      }
    }
    all.insert(all.end(), st.pending.begin(), st.pending.end());
  }
  ensure(all, speculation(all, lockstep.r_steps, round), round < spec_.refinement_rounds);
  for (std::size_t s = 0; s < lockstep.searches.size(); ++s) {
    auto& st = lockstep.searches[s];
    st.evaluated.insert(st.evaluated.end(), st.pending.begin(), st.pending.end());
    if (progress_) {
      progress_(fmt::format("search{}: {} {} candidates ({} feasible)", st.label(), label,
                            proposals[s].size(), st.pending.size()));
    }
  }
}

// The evaluated candidates by mean BCE (ties by key, for determinism), each once.
std::vector<Theta> HyperparameterSearch::ranked(const std::vector<Theta>& evaluated) const {
  auto mean_of = [&](const Theta& t) { return cache_.at(key(t)).mean(); };
  std::vector<Theta> order = evaluated;
  std::sort(order.begin(), order.end(), [&](const Theta& a, const Theta& b) {
    const double ma = mean_of(a);
    const double mb = mean_of(b);
    if (ma != mb) return ma < mb;
    return key(a) < key(b);  // deterministic tie-break
  });
  order.erase(std::unique(order.begin(), order.end(),
                          [&](const Theta& a, const Theta& b) { return key(a) == key(b); }),
              order.end());
  return order;
}

// The 3 x 3 x 3 grid with the given steps around each of the top-k ranked candidates.
std::vector<Theta> HyperparameterSearch::refinement_around(const std::vector<Theta>& ranked,
                                                           double step_ell, double step_r,
                                                           double step_sigma) const {
  std::vector<Theta> around;
  const auto top = std::min<std::size_t>(ranked.size(), static_cast<std::size_t>(spec_.top_k));
  for (std::size_t k = 0; k < top; ++k) {
    const Theta& c = ranked[k];
    for (int a = -1; a <= 1; ++a) {
      for (int b = -1; b <= 1; ++b) {
        for (int s = -1; s <= 1; ++s) {
          around.push_back({c.ell * std::pow(step_ell, a), c.r * std::pow(step_r, b),
                            c.sigma * std::pow(step_sigma, s)});
        }
      }
    }
  }
  return around;
}

SearchResult HyperparameterSearch::run(const PrivacyConstraint* constraint) {
  return run_together({constraint}).front();
}

std::vector<SearchResult> HyperparameterSearch::run_together(
    const std::vector<const PrivacyConstraint*>& constraints) {
  require(!constraints.empty(), "hyperparameter search: no search to run");
  Lockstep lockstep;
  for (const auto* c : constraints) lockstep.searches.push_back({c, {}, {}});
  lockstep.r_steps = refinement_r_steps(spec_.coarse.r, spec_.refinement_rounds);

  // The coarse grid, then the rounds of refinement with halved (log) steps.
  evaluate_round(
      lockstep,
      std::vector<std::vector<Theta>>(constraints.size(), coarse_candidates(spec_.coarse)),
      "coarse grid", 0);
  for (const auto& st : lockstep.searches) {
    if (st.evaluated.empty()) {
      throw PrivacyError(fmt::format(
          "hyperparameter search: no θ of the coarse grid satisfies ε < {} (extend the r/σ ranges)",
          st.constraint ? st.constraint->epsilon_max : 0.0));
    }
  }
  double step_ell = log_step(spec_.coarse.ell);
  double step_r = log_step(spec_.coarse.r);
  double step_sigma = log_step(spec_.coarse.sigma);
  for (int round = 1; round <= spec_.refinement_rounds; ++round) {
    step_ell = std::sqrt(step_ell);
    step_r = std::sqrt(step_r);
    step_sigma = std::sqrt(step_sigma);
    std::vector<std::vector<Theta>> proposals;
    for (const auto& st : lockstep.searches) {
      proposals.push_back(refinement_around(ranked(st.evaluated), step_ell, step_r, step_sigma));
    }
    evaluate_round(lockstep, proposals, fmt::format("refinement {}", round), round);
  }

  // Each search's best candidate.
  std::vector<SearchResult> results;
  for (const auto& st : lockstep.searches) {
    SearchResult result;
    result.best = ranked(st.evaluated).front();
    result.per_task = cache_.at(key(result.best));
    result.objective = result.per_task.mean();
    result.candidates_evaluated = static_cast<long>(st.evaluated.size());
    result.constrained = st.constraint != nullptr;
    if (progress_) {
      progress_(fmt::format("search{}: best ℓ = {:.4g}, r = {:.4g}, σ = {:.4g}, mean BCE = {:.5g}",
                            st.label(), result.best.ell, result.best.r, result.best.sigma,
                            result.objective));
    }
    results.push_back(std::move(result));
  }
  objective_.forget();  // kept z₁ only serve the rounds of this call
  return results;
}

}  // namespace gpdp::experiments
