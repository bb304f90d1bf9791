#pragma once
// Hyperparameter search for excursion-set estimation (paper eqs. 6–7, App. D):
//   θ*      ∈ argmin_θ                 mean_j L_BCE(Π_{D_j, θ}, f*_j)
//   θ_L^priv ∈ argmin_{θ : ε_L(θ) < ε₀} mean_j L_BCE(Π_{D_j, θ}, f*_j)
// over θ = (ℓ, r, σ) of the exponential kernel exp(−‖x − x'‖/ℓ): a coarse log-spaced grid, then
// `refinement_rounds` rounds of a 3 x 3 x 3 grid with halved log-step around the top-k candidates.
// The constrained search is the same procedure with every infeasible θ discarded.
//
// A "task" is one (f*, D) pair: training data, evaluation points, 0/1 labels and quadrature weights
// (synthetic: grid + trapezoid weights; a user's data: validation points + equal weights).
// z₁ = (μ_D − t)/√k_D with σ = 1, and p_D for any σ is Φ(z₁/σ) because μ_D and k_D do not
// depend on σ, so one posterior per (ℓ, r) serves every σ. z₁ comes from the core's multi-ridge
// engines (posteriors/multi_ridge.hpp), chosen by one of three exact routes:
//   Direct    DirectPosterior per (ℓ, r): the O(n + m) Markov engine for the 1-D exponential
//             kernel, a Cholesky of K + r²I and an n x m solve otherwise;
//   Spectral  SpectralPosterior: one eigendecomposition per ℓ serving every r (O(n³ + m n²) per ℓ,
//             O(m n) per r);
//   Hybrid    for an ℓ with ≥ 3 r, TridiagonalPosterior (one reduction per ℓ serving every r,
//             cheaper per ℓ than Spectral); for fewer r, RidgeCholesky (one Cholesky per (ℓ, r) on
//             the task's precomputed distances, O(n³/3 + m n²) each).
// Auto = Direct in 1-D (Markov) and Hybrid otherwise.
#include <Eigen/Core>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpdp/kernel.hpp"

namespace gpdp::experiments {

struct Theta {
  double ell;
  double r;
  double sigma;
};

struct ExcursionTask {
  Points X;
  Eigen::VectorXd y;
  std::shared_ptr<const Points> eval_points;
  std::shared_ptr<const Eigen::VectorXd> weights;
  Eigen::VectorXd truth;  // 0/1 on eval_points
};

// z₁ = (μ_D − t)/√k_D on task.eval_points for θ = (ℓ, r, ·): p_D = Φ(z₁/σ).
Eigen::VectorXd excursion_z(const ExcursionTask& task, double ell, double r, double threshold);

enum class PosteriorRoute { Auto, Direct, Spectral, Hybrid };
// The route Auto stands for in dimension `dim`: Direct in 1-D (Markov), Hybrid otherwise.
PosteriorRoute resolved_route(PosteriorRoute route, long dim);

// Quantised log: values equal up to rounding (≈1e-9 relative) get the same key.
long long log_key(double v);

// What the search minimises: the tasks x thetas matrix of L_BCE (see ExcursionObjective).
class BceObjective {
 public:
  virtual ~BceObjective() = default;
  virtual Eigen::MatrixXd evaluate(const std::vector<Theta>& thetas,
                                   const std::vector<std::pair<double, double>>& speculative = {},
                                   bool keep = false) const = 0;
  // Drops what `keep` kept.
  virtual void forget() const = 0;
};

// Per-task integrated BCE of many θ, parallel over tasks (deterministic for any thread count).
class ExcursionObjective final : public BceObjective {
 public:
  ExcursionObjective(std::vector<ExcursionTask> tasks, double threshold, int threads,
                     PosteriorRoute route = PosteriorRoute::Auto);
  const std::vector<ExcursionTask>& tasks() const { return tasks_; }
  double threshold() const { return threshold_; }
  int threads() const { return threads_; }
  PosteriorRoute route() const { return route_; }
  // tasks x thetas matrix of L_BCE.
  // Hybrid route only: z₁ of every (ℓ, r) computed with `keep` is kept (m doubles per task) and
  // reused by later calls, and when an ℓ is reduced anyway, z₁ is also computed (and kept) at the
  // `speculative` (ℓ, r) of that ℓ, at O(m n) each: a search's next round asks for r next to this
  // round's, and those then cost no new reduction. Values are the same either way up to rounding.
  Eigen::MatrixXd evaluate(const std::vector<Theta>& thetas,
                           const std::vector<std::pair<double, double>>& speculative = {},
                           bool keep = false) const override;
  // Drops the kept z₁; kept() counts them (over all tasks).
  void forget() const override;
  long kept() const;
  // Work done so far, summed over tasks: reductions serving every r (eigen: Spectral, tridiagonal:
  // Hybrid) and single-ridge posterior fits (Direct: Markov in 1-D, Cholesky otherwise; Hybrid:
  // Cholesky).
  long reductions() const { return reductions_.load(); }
  long single_ridge_fits() const { return single_ridge_fits_.load(); }

 private:
  std::vector<ExcursionTask> tasks_;
  double threshold_;
  int threads_;
  PosteriorRoute route_;
  mutable std::atomic<long> reductions_{0};
  mutable std::atomic<long> single_ridge_fits_{0};
  // Per task: z₁ by (log_key(ℓ), log_key(r)); each task's map is touched only by its worker.
  mutable std::vector<std::map<std::pair<long long, long long>, Eigen::VectorXd>> kept_;
};

struct SearchGrid {
  std::vector<double> ell, r, sigma;  // each increasing and log-spaced
  static SearchGrid log_spaced(double ell_lo, double ell_hi, int n_ell, double r_lo, double r_hi,
                               int n_r, double sigma_lo, double sigma_hi, int n_sigma);
};

// The default coarse θ grids of the paper's experiments (ours: the paper does not list them), also
// what the public search and the preview start from.
SearchGrid default_search_grid(int dim);

struct SearchSpec {
  SearchGrid coarse;
  int refinement_rounds = 2;
  int top_k = 3;
};

// ε_L(θ) from the accountant; θ is feasible iff epsilon(θ) < epsilon_max (strict, as in eq. 7).
struct PrivacyConstraint {
  std::function<double(const Theta&)> epsilon;
  double epsilon_max;
};

struct SearchResult {
  Theta best{};
  double objective = 0.0;         // mean BCE at best
  Eigen::VectorXd per_task;       // BCE of best on each task
  long candidates_evaluated = 0;  // θ evaluated by this search (cache hits included)
  bool constrained = false;
};

// Caches every θ it has evaluated, so the unconstrained and constrained searches on the same
// population share work.
class HyperparameterSearch {
 public:
  HyperparameterSearch(const BceObjective& objective, SearchSpec spec,
                       std::function<void(const std::string&)> progress = {});
  SearchResult run(const PrivacyConstraint* constraint = nullptr);
  // Several searches (nullptr = unconstrained) in lockstep: each round evaluates the proposals of
  // all of them in one pass over the tasks, so they share decompositions where their ℓ meet. Each
  // search proposes and ranks exactly as run(constraint); values can differ from separate runs by
  // rounding only (an ℓ shared by more candidates may be served by another exact route).
  std::vector<SearchResult> run_together(const std::vector<const PrivacyConstraint*>& constraints);
  long distinct_evaluations() const { return static_cast<long>(cache_.size()); }
  // Distinct (ℓ, r) among them: the number of posteriors fitted per task.
  long distinct_posteriors() const;

 private:
  struct Key {
    long long a, b, c;
    auto operator<=>(const Key&) const = default;
  };
  struct Lockstep;  // the searches of one run_together call (search.cpp)
  static Key key(const Theta& t);
  // Evaluates the θ not cached yet; passes `speculative` and `keep` to
  // ExcursionObjective::evaluate.
  void ensure(const std::vector<Theta>& thetas,
              const std::vector<std::pair<double, double>>& speculative = {}, bool keep = false);
  // The steps of run_together (search.cpp).
  void evaluate_round(Lockstep& searches, const std::vector<std::vector<Theta>>& proposals,
                      const std::string& label, int round);
  std::vector<Theta> ranked(const std::vector<Theta>& evaluated) const;
  std::vector<Theta> refinement_around(const std::vector<Theta>& ranked, double step_ell,
                                       double step_r, double step_sigma) const;

  const BceObjective& objective_;
  SearchSpec spec_;
  std::function<void(const std::string&)> progress_;
  std::map<Key, Eigen::VectorXd> cache_;
};

}  // namespace gpdp::experiments
