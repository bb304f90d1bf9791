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
#include "gpdp/experiments/ridge_cholesky.hpp"
#include "gpdp/experiments/spectral_posterior.hpp"
#include "gpdp/experiments/tridiagonal_posterior.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/posterior.hpp"

namespace gpdp::experiments {

Eigen::VectorXd excursion_z(const ExcursionTask& task, double ell, double r, double threshold) {
  const Posterior posterior(Kernel::exponential(ell), task.X, task.y, Hyperparameters{r, 1.0});
  const Eigen::VectorXd mu = posterior.mean(*task.eval_points);
  const Eigen::VectorXd kd = posterior.variance(*task.eval_points);  // σ = 1: k_D(x, x)
  return standardised_excess(mu, kd, threshold);
}

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
}

long long log_key(double v) { return std::llround(std::log(v) * 1e9); }

namespace {
// Hybrid route: an ℓ needing at least this many ridges r gets one tridiagonal reduction
// (TridiagonalPosterior), fewer get one Cholesky each (RidgeCholesky). Measured for n = 400,
// m = 1600 on one core (bench_utility): a reduction costs about as much as 2–3 Cholesky solves
// (BM_Tridiagonal2d_PerEll ≈ 25 ms with the kernel matrices, BM_Cholesky2d_PerR ≈ 9 ms).
constexpr std::size_t kTridiagonalMinRidges = 3;
}  // namespace

Eigen::MatrixXd ExcursionObjective::evaluate(
    const std::vector<Theta>& thetas, const std::vector<std::pair<double, double>>& speculative,
    bool keep) const {
  // Group θ by ℓ, then by r (values equal up to rounding, log_key, share a group: refinement steps
  // from neighbouring candidates meet at the same ℓ computed two ways). One posterior per (ℓ, r)
  // and task; every σ of a group from the same z₁.
  struct RGroup {
    double r;
    long long key;  // log_key(r)
    std::vector<std::size_t> members;
  };
  struct EllGroup {
    double ell;
    long long key;  // log_key(ℓ)
    std::vector<RGroup> by_r;
    std::vector<double> extra_r;  // speculative ridges at this ℓ (not requested now)
  };
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
  for (const auto& [ell, r] : speculative) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const EllGroup& g) { return g.key == log_key(ell); });
    if (it == groups.end()) continue;  // speculation only rides along with a reduction of its ℓ
    const bool requested = std::any_of(it->by_r.begin(), it->by_r.end(),
                                       [&](const RGroup& g) { return g.key == log_key(r); });
    const bool listed = std::any_of(it->extra_r.begin(), it->extra_r.end(),
                                    [&](double e) { return log_key(e) == log_key(r); });
    if (!requested && !listed) it->extra_r.push_back(r);
  }
  Eigen::MatrixXd out(static_cast<Eigen::Index>(tasks_.size()),
                      static_cast<Eigen::Index>(thetas.size()));
  parallel_for(static_cast<long>(tasks_.size()), threads_, [&](long i) {
    const auto& task = tasks_[static_cast<std::size_t>(i)];
    auto& kept = kept_[static_cast<std::size_t>(i)];
    const PosteriorRoute route =
        route_ != PosteriorRoute::Auto
            ? route_
            : (task.X.cols() == 1 ? PosteriorRoute::Direct : PosteriorRoute::Hybrid);
    std::optional<PairwiseDistances> distances;
    std::optional<SpectralPosterior>
        family;  // one object per task, refitted per ℓ (storage reused)
    TridiagonalPosterior reduced;
    RidgeCholesky ridge;
    auto distances_of_task = [&]() -> const PairwiseDistances& {
      if (!distances) distances.emplace(task.X, *task.eval_points);
      return *distances;
    };
    for (const auto& group : groups) {
      const Kernel kernel = Kernel::exponential(group.ell);
      const long long ell_key = group.key;
      // z₁ per requested r of this group: kept from an earlier call (hybrid route), or computed
      // now.
      std::vector<Eigen::VectorXd> z(group.by_r.size());
      std::vector<double> todo;          // requested ridges not kept, then the speculative ones
      std::vector<std::size_t> todo_of;  // which requested r each of the first ones is
      for (std::size_t q = 0; q < group.by_r.size(); ++q) {
        const auto found = kept.find({ell_key, group.by_r[q].key});
        if (route == PosteriorRoute::Hybrid && found != kept.end()) {
          z[q] = found->second;
        } else {
          todo.push_back(group.by_r[q].r);
          todo_of.push_back(q);
        }
      }
      if (!todo.empty()) {
        const std::size_t requested = todo.size();
        if (route == PosteriorRoute::Hybrid) {
          for (const double r : group.extra_r) {
            if (!kept.contains({ell_key, log_key(r)})) todo.push_back(r);
          }
        }
        std::vector<Eigen::VectorXd> fresh(todo.size());
        if (route == PosteriorRoute::Spectral) {
          if (family) {
            family->refit(kernel, distances_of_task(), task.y);
          } else {
            family.emplace(kernel, distances_of_task(), task.y);
          }
          reductions_.fetch_add(1, std::memory_order_relaxed);
          for (std::size_t q = 0; q < todo.size(); ++q)
            fresh[q] = family->excursion_z(todo[q], threshold_);
        } else if (route == PosteriorRoute::Hybrid && todo.size() >= kTridiagonalMinRidges) {
          reduced.refit(kernel, distances_of_task(), task.y);
          reductions_.fetch_add(1, std::memory_order_relaxed);
          const Eigen::MatrixXd zs = reduced.excursion_z(todo, threshold_);
          for (std::size_t q = 0; q < todo.size(); ++q)
            fresh[q] = zs.col(static_cast<Eigen::Index>(q));
        } else {
          todo.resize(requested);  // no speculation without a reduction
          fresh.resize(requested);
          if (route == PosteriorRoute::Hybrid) ridge.refit(kernel, distances_of_task());
          for (std::size_t q = 0; q < requested; ++q) {
            fresh[q] = route == PosteriorRoute::Hybrid
                           ? ridge.excursion_z(todo[q], task.y, threshold_)
                           : excursion_z(task, group.ell, todo[q], threshold_);
            cholesky_fits_.fetch_add(1, std::memory_order_relaxed);
          }
        }
        for (std::size_t t = 0; t < requested; ++t) z[todo_of[t]] = fresh[t];
        if (keep && route == PosteriorRoute::Hybrid) {
          for (std::size_t q = 0; q < todo.size(); ++q)
            kept[{ell_key, log_key(todo[q])}] = std::move(fresh[q]);
        }
      }
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

HyperparameterSearch::HyperparameterSearch(const ExcursionObjective& objective, SearchSpec spec,
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

namespace {
// Geometric step of a log-spaced axis (1 when it has a single value).
double log_step(const std::vector<double>& axis) {
  if (axis.size() < 2) return 2.0;
  return std::pow(axis.back() / axis.front(), 1.0 / static_cast<double>(axis.size() - 1));
}
}  // namespace

SearchResult HyperparameterSearch::run(const PrivacyConstraint* constraint) {
  return run_together({constraint}).front();
}

std::vector<SearchResult> HyperparameterSearch::run_together(
    const std::vector<const PrivacyConstraint*>& constraints) {
  require(!constraints.empty(), "hyperparameter search: no search to run");
  struct State {
    const PrivacyConstraint* constraint;
    std::vector<Theta> evaluated;  // candidates of this search, in order
    std::vector<Theta> pending;    // feasible proposals of the current round
  };
  std::vector<State> states;
  for (const auto* c : constraints) states.push_back({c, {}, {}});
  auto label_of = [](const State& st) { return st.constraint ? " (ε-constrained)" : ""; };
  // The r-steps of the refinement rounds: round j multiplies r by step^(±1/2^j).
  std::vector<double> r_steps;
  for (double step = log_step(spec_.coarse.r);
       static_cast<int>(r_steps.size()) < spec_.refinement_rounds;) {
    step = std::sqrt(step);
    r_steps.push_back(step);
  }
  // One round for every search: the feasible proposals of all of them are evaluated together, so
  // an ℓ proposed by two searches is decomposed once per task. Every later round can centre on a
  // proposal of this round and ask, at its ℓ, for r times the later steps; those (ℓ, r) ride along
  // as speculation (kept z₁, no new reduction when they are asked for).
  auto add_round = [&](const std::vector<std::vector<Theta>>& proposals, const std::string& label,
                       int round) {
    std::vector<Theta> all;
    for (std::size_t s = 0; s < states.size(); ++s) {
      auto& st = states[s];
      st.pending.clear();
      for (const auto& t : proposals[s]) {
        if (st.constraint == nullptr || st.constraint->epsilon(t) < st.constraint->epsilon_max) {
          st.pending.push_back(t);
        }
      }
      all.insert(all.end(), st.pending.begin(), st.pending.end());
    }
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
    ensure(all, speculative, round < spec_.refinement_rounds);
    for (std::size_t s = 0; s < states.size(); ++s) {
      auto& st = states[s];
      st.evaluated.insert(st.evaluated.end(), st.pending.begin(), st.pending.end());
      if (progress_) {
        progress_(fmt::format("search{}: {} {} candidates ({} feasible)", label_of(st), label,
                              proposals[s].size(), st.pending.size()));
      }
    }
  };
  std::vector<Theta> coarse;
  for (const double ell : spec_.coarse.ell) {
    for (const double r : spec_.coarse.r) {
      for (const double sigma : spec_.coarse.sigma) coarse.push_back({ell, r, sigma});
    }
  }
  add_round(std::vector<std::vector<Theta>>(states.size(), coarse), "coarse grid", 0);
  for (const auto& st : states) {
    if (st.evaluated.empty()) {
      throw PrivacyError(fmt::format(
          "hyperparameter search: no θ of the coarse grid satisfies ε < {} (extend the r/σ ranges)",
          st.constraint ? st.constraint->epsilon_max : 0.0));
    }
  }
  auto mean_of = [&](const Theta& t) { return cache_.at(key(t)).mean(); };
  auto ranked = [&](const State& st) {
    std::vector<Theta> order = st.evaluated;
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
  };
  double step_ell = log_step(spec_.coarse.ell);
  double step_r = log_step(spec_.coarse.r);
  double step_sigma = log_step(spec_.coarse.sigma);
  for (int round = 1; round <= spec_.refinement_rounds; ++round) {
    step_ell = std::sqrt(step_ell);
    step_r = std::sqrt(step_r);
    step_sigma = std::sqrt(step_sigma);
    std::vector<std::vector<Theta>> proposals;
    for (const auto& st : states) {
      const auto order = ranked(st);
      std::vector<Theta> around;
      const auto top = std::min<std::size_t>(order.size(), static_cast<std::size_t>(spec_.top_k));
      for (std::size_t k = 0; k < top; ++k) {
        const Theta& c = order[k];
        for (int a = -1; a <= 1; ++a) {
          for (int b = -1; b <= 1; ++b) {
            for (int s = -1; s <= 1; ++s) {
              around.push_back({c.ell * std::pow(step_ell, a), c.r * std::pow(step_r, b),
                                c.sigma * std::pow(step_sigma, s)});
            }
          }
        }
      }
      proposals.push_back(std::move(around));
    }
    add_round(proposals, fmt::format("refinement {}", round), round);
  }
  std::vector<SearchResult> results;
  for (const auto& st : states) {
    const auto order = ranked(st);
    SearchResult result;
    result.best = order.front();
    result.per_task = cache_.at(key(result.best));
    result.objective = result.per_task.mean();
    result.candidates_evaluated = static_cast<long>(st.evaluated.size());
    result.constrained = st.constraint != nullptr;
    if (progress_) {
      progress_(fmt::format("search{}: best ℓ = {:.4g}, r = {:.4g}, σ = {:.4g}, mean BCE = {:.5g}",
                            label_of(st), result.best.ell, result.best.r, result.best.sigma,
                            result.objective));
    }
    results.push_back(std::move(result));
  }
  objective_.forget();  // kept z₁ only serve the rounds of this call
  return results;
}

}  // namespace gpdp::experiments
