#pragma once
// The auditor: an empirical LOWER bound on the privacy loss of a concrete GP mechanism, to set
// beside the proven upper bound. It searches replace-one neighbours D ~ D' (covariates in the
// declared box, |y| ≤ M_Y, or y = f*(x) with ‖f*‖_H ≤ B for Lemma B.8) and test sets X_T that
// contain the differing points, maximising the EXACT Rényi divergence
//   D_α( N(μ_D(X_T), σ² k_D + η² K) ‖ N(μ_D'(X_T), σ² k_D' + η² K) )
// and the exact mean sensitivity ‖μ_D − μ_D'‖_{H−} that the Δ_n lemmas bound. Two searches:
//   gradient (default): projected gradient ascent on the analytic gradient (pair_gradient.hpp)
//     from structured starts, seeded random starts, and a continuation that grows the worst
//     pairs found at n = 1, 2, 3, 5, 8, ... into starts at the next size;
//   subplex (the original): seeded random restarts + NLopt's derivative-free Subplex.
// For the functional mechanism (m.kind = Functional) the divergence maximised is that of the whole
// released process, α ‖μ_D − μ_D'‖²_H / (2 s²) (audit_functional.hpp), every pair is an exact
// Gaussian mechanism, and the search is Subplex. Every reported value is recomputed by an exact
// oracle (neighbour_pair.hpp, audit_functional.hpp). Any value above the proven ε_α (or Δ_n) is a
// VIOLATION of the bound (or of the assumptions behind a
// user-supplied V_n / Δ_n). It uses Kernel and Posterior of concrete datasets; it certifies
// nothing.
#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpdp/auditor/neighbour_pair.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::auditor {

enum class AuditSearch { Gradient, Subplex };
// "gradient" | "subplex".
std::string to_string(AuditSearch search);
AuditSearch parse_audit_search(const std::string& name);

struct AuditSettings {
  std::vector<double> alphas;  // orders to audit; empty = spread over the admissible range + α*
  AuditSearch search = AuditSearch::Gradient;
  int restarts = 12;          // random starts per order and per mode (gradient: besides the
                              // structured and continuation starts)
  int max_evals = 300;        // objective (gradient: gradient) evaluations per local search
  int extra_test_points = 2;  // free test points besides the differing points (≤ 50)
  bool continuation = true;   // gradient: grow worst pairs from n = 1 up to n
  bool sensitivity = true;    // gradient: also search ‖μ_D − μ_D'‖_{H−} against Δ_n
  int threads = 1;            // workers for the starts in process (results do not depend on it)
  std::uint64_t seed = 1;     // the search is seeded (an experiment, not a release)
  double delta = 1e-5;
  long draws = 1;
  privacy::Conversion conversion = privacy::Conversion::Mironov;
};

struct AuditOrder {
  double alpha = 0.0;
  double proven = 0.0;  // proven ε_α of ONE draw (Theorem 3.1 / Prop. 2 with the given V_n, Δ_n)
  double lower = 0.0;   // best exact D_α found (one draw); L draws: both scale by L exactly
  bool violation = false;
  NeighbourPair witness;
  PairShape shape;    // of the witness
  std::string start;  // the start the gradient search reached it from
};

// The best exact value found at one size of the continuation (at the anchor order α*).
struct ContinuationRung {
  long n = 0;
  double lower = 0.0;        // D_α at the anchor order
  double sensitivity = 0.0;  // ‖μ_D − μ_D'‖_{H−} (0 when not searched)
};

struct AuditReport {
  AuditSearch search = AuditSearch::Gradient;  // the search that ran (B.8 always uses subplex)
  std::vector<AuditOrder> orders;
  long draws = 1;
  privacy::Guarantee proven;  // proven ε(δ) of L draws
  double epsilon_lower =
      0.0;  // exact ε(δ) of the best same-covariate pair, L draws (a lower bound)
  double mean_distance = 0.0;  // that pair's Mahalanobis distance (one draw)
  NeighbourPair distance_witness;
  // Mean sensitivity: Δ_n in use, and the largest exact ‖μ_D − μ_D'‖_{H−} found (gradient search
  // with settings.sensitivity; otherwise sensitivity_searched = false).
  bool sensitivity_searched = false;
  double sensitivity_proven = 0.0;
  double sensitivity_lower = 0.0;
  bool sensitivity_violation = false;
  NeighbourPair sensitivity_witness;
  PairShape sensitivity_shape;
  std::vector<ContinuationRung> continuation;
  double anchor_alpha = 0.0;  // the order the continuation ran at
  long evaluations = 0;
  long singular_skipped = 0;  // ill-posed (NaN) or +∞ candidates, not counted as findings
  bool violation = false;
  std::string rng;  // "seeded ... (NOT private)"
};

// Needs m.kernel and a finite σ (InputError otherwise). progress(msg) is called per order. The
// local searches (one per start or restart) run on s.threads in this process, or as
// "audit.ascent" / "audit.subplex" tasks (privacy/audit_tasks.hpp) on `executor` when one is given;
// the report is the same either way.
AuditReport audit(const privacy::GpMechanism& m, const AuditSettings& s,
                  const std::function<void(const std::string&)>& progress = {},
                  tasks::Executor* executor = nullptr);

}  // namespace gpdp::auditor
