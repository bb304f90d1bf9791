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
#include "gpdp/parallel.hpp"
#include "gpdp/experiments/spectral_posterior.hpp"
#include "gpdp/posterior.hpp"

namespace gpdp::experiments {

Eigen::VectorXd excursion_z(const ExcursionTask& task, double ell, double r, double threshold) {
  const Posterior posterior(Kernel::exponential(ell), task.X, task.y, Hyperparameters{r, 1.0});
  const Eigen::VectorXd mu = posterior.mean(*task.eval_points);
  const Eigen::VectorXd kd = posterior.variance(*task.eval_points);  // σ = 1: k_D(x, x)
  return standardised_excess(mu, kd, threshold);
}

ExcursionObjective::ExcursionObjective(std::vector<ExcursionTask> tasks, double threshold, int threads,
                                       PosteriorRoute route)
    : tasks_(std::move(tasks)), threshold_(threshold), threads_(resolve_threads(threads)), route_(route) {
  require(!tasks_.empty(), "excursion objective: no tasks");
  for (const auto& t : tasks_) {
    require(t.eval_points && t.weights, "excursion objective: task without evaluation points");
    require(t.truth.size() == t.eval_points->rows() && t.weights->size() == t.truth.size(),
            "excursion objective: labels, weights and evaluation points differ in size");
  }
}

Eigen::MatrixXd ExcursionObjective::evaluate(const std::vector<Theta>& thetas) const {
  // Group θ by ℓ, then by r: one posterior per (ℓ, r) and task (Direct) or one eigendecomposition
  // per ℓ and task (Spectral); every σ of a group from the same z₁.
  using RGroup = std::pair<double, std::vector<std::size_t>>;
  std::vector<std::pair<double, std::vector<RGroup>>> groups;
  for (std::size_t k = 0; k < thetas.size(); ++k) {
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == thetas[k].ell; });
    if (it == groups.end()) {
      groups.push_back({thetas[k].ell, {}});
      it = std::prev(groups.end());
    }
    auto jt = std::find_if(it->second.begin(), it->second.end(), [&](const RGroup& g) { return g.first == thetas[k].r; });
    if (jt == it->second.end()) {
      it->second.push_back({thetas[k].r, {k}});
    } else {
      jt->second.push_back(k);
    }
  }
  Eigen::MatrixXd out(static_cast<Eigen::Index>(tasks_.size()), static_cast<Eigen::Index>(thetas.size()));
  parallel_for(static_cast<long>(tasks_.size()), threads_, [&](long i) {
    const auto& task = tasks_[static_cast<std::size_t>(i)];
    const bool spectral = route_ == PosteriorRoute::Spectral ||
                          (route_ == PosteriorRoute::Auto && task.X.cols() != 1);
    std::optional<PairwiseDistances> distances;
    std::optional<SpectralPosterior> family;  // one object per task, refitted per ℓ (storage reused)
    if (spectral) distances.emplace(task.X, *task.eval_points);
    for (const auto& [ell, by_r] : groups) {
      if (spectral) {
        if (family) {
          family->refit(Kernel::exponential(ell), *distances, task.y);
        } else {
          family.emplace(Kernel::exponential(ell), *distances, task.y);
        }
      }
      for (const auto& [r, members] : by_r) {
        const Eigen::VectorXd z1 =
            spectral ? family->excursion_z(r, threshold_) : excursion_z(task, ell, r, threshold_);
        for (const std::size_t k : members) {
          out(i, static_cast<Eigen::Index>(k)) =
              integrated_bce_from_z(z1 / thetas[k].sigma, task.truth, *task.weights);
        }
      }
    }
  });
  return out;
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
  auto q = [](double v) { return std::llround(std::log(v) * 1e9); };
  return {q(t.ell), q(t.r), q(t.sigma)};
}

long HyperparameterSearch::distinct_posteriors() const {
  std::set<std::pair<long long, long long>> lr;
  for (const auto& [k, v] : cache_) lr.insert({k.a, k.b});
  return static_cast<long>(lr.size());
}

void HyperparameterSearch::ensure(const std::vector<Theta>& thetas) {
  std::vector<Theta> missing;
  for (const auto& t : thetas) {
    if (!cache_.contains(key(t))) missing.push_back(t);
  }
  if (missing.empty()) return;
  const Eigen::MatrixXd values = objective_.evaluate(missing);
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
  auto feasible = [&](const Theta& t) {
    return constraint == nullptr || constraint->epsilon(t) < constraint->epsilon_max;
  };
  std::vector<Theta> evaluated;  // candidates of this search, in order
  auto add_round = [&](const std::vector<Theta>& proposals, const std::string& label) {
    std::vector<Theta> keep;
    for (const auto& t : proposals) {
      if (feasible(t)) keep.push_back(t);
    }
    ensure(keep);
    evaluated.insert(evaluated.end(), keep.begin(), keep.end());
    if (progress_) {
      progress_(fmt::format("search{}: {} {} candidates ({} feasible)",
                            constraint ? " (ε-constrained)" : "", label, proposals.size(),
                            keep.size()));
    }
  };
  std::vector<Theta> coarse;
  for (const double ell : spec_.coarse.ell) {
    for (const double r : spec_.coarse.r) {
      for (const double sigma : spec_.coarse.sigma) coarse.push_back({ell, r, sigma});
    }
  }
  add_round(coarse, "coarse grid");
  if (evaluated.empty()) {
    throw PrivacyError(fmt::format(
        "hyperparameter search: no θ of the coarse grid satisfies ε < {} (extend the r/σ ranges)",
        constraint ? constraint->epsilon_max : 0.0));
  }
  auto mean_of = [&](const Theta& t) { return cache_.at(key(t)).mean(); };
  auto ranked = [&] {
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
  };
  double step_ell = log_step(spec_.coarse.ell);
  double step_r = log_step(spec_.coarse.r);
  double step_sigma = log_step(spec_.coarse.sigma);
  for (int round = 1; round <= spec_.refinement_rounds; ++round) {
    step_ell = std::sqrt(step_ell);
    step_r = std::sqrt(step_r);
    step_sigma = std::sqrt(step_sigma);
    const auto order = ranked();
    std::vector<Theta> proposals;
    const auto top = std::min<std::size_t>(order.size(), static_cast<std::size_t>(spec_.top_k));
    for (std::size_t k = 0; k < top; ++k) {
      const Theta& c = order[k];
      for (int a = -1; a <= 1; ++a) {
        for (int b = -1; b <= 1; ++b) {
          for (int s = -1; s <= 1; ++s) {
            proposals.push_back({c.ell * std::pow(step_ell, a), c.r * std::pow(step_r, b),
                                 c.sigma * std::pow(step_sigma, s)});
          }
        }
      }
    }
    add_round(proposals, fmt::format("refinement {}", round));
  }
  const auto order = ranked();
  SearchResult result;
  result.best = order.front();
  result.per_task = cache_.at(key(result.best));
  result.objective = result.per_task.mean();
  result.candidates_evaluated = static_cast<long>(evaluated.size());
  result.constrained = constraint != nullptr;
  if (progress_) {
    progress_(fmt::format("search{}: best ℓ = {:.4g}, r = {:.4g}, σ = {:.4g}, mean BCE = {:.5g}",
                          constraint ? " (ε-constrained)" : "", result.best.ell, result.best.r,
                          result.best.sigma, result.objective));
  }
  return result;
}

}  // namespace gpdp::experiments
