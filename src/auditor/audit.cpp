#include "gpdp/auditor/audit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "audit_codec.hpp"
#include "audit_runs.hpp"
#include "gpdp/error.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::auditor {

namespace {

using Progress = std::function<void(const std::string&)>;

bool exceeds(double found, double proven) { return found > proven * (1.0 + 1e-9) + 1e-12; }

std::vector<double> audit_orders(const AuditSettings& s, const privacy::RdpCurve& curve,
                                 double alpha_star) {
  std::vector<double> alphas = s.alphas;
  if (alphas.empty()) {
    const double top = curve.alpha_max();
    if (std::isinf(top)) {
      alphas = {1.5, 2.0, 4.0, 16.0};
    } else {
      for (double f : {0.05, 0.3, 0.6, 0.9}) alphas.push_back(1.0 + f * (top - 1.0));
    }
    alphas.push_back(alpha_star);
    std::sort(alphas.begin(), alphas.end());
  }
  for (const double alpha : alphas) {
    require(alpha > 1 && alpha < curve.alpha_max(),
            fmt::format("audit: α = {} is outside the admissible range (1, {})", alpha,
                        curve.alpha_max()));
  }
  return alphas;
}

// One objective, one mode (general or same-covariate), one size: the gradient search from the
// structured starts, `restarts` random starts and `extra` (continuation, earlier orders).
struct ModeSearch {
  const privacy::GpMechanism& m;
  const Box& box;
  const AuditSettings& s;
  SeededRng& rng;
  tasks::Executor* executor;

  Found run(long n, bool same, int restarts, const std::vector<Start>& extra,
            const ObjectiveSpec& objective) const {
    privacy::GpMechanism sized = m;
    sized.n = n;
    const PairCodec codec(sized, box, s.extra_test_points, same);
    std::vector<Start> starts = structured_starts(codec, m.kernel->lengthscale(), rng);
    for (auto& r : random_starts(codec, restarts, rng)) starts.push_back(std::move(r));
    for (const auto& e : extra) {
      if (e.pair.X.rows() == n) starts.push_back(e);
    }
    return run_ascents({sized, box, s.extra_test_points, same}, starts, objective, s.max_evals,
                       s.threads, executor);
  }

  // Continuation: the best pair at each size of continuation_ladder(m.n) seeds the next size
  // (extend_pair's five rules). Returns the best of every rung.
  std::vector<Found> ladder(bool same, const ObjectiveSpec& objective,
                            const Progress& progress) const {
    std::vector<Found> rungs;
    for (const long n : continuation_ladder(m.n)) {
      std::vector<Start> extra;
      if (!rungs.empty() && std::isfinite(rungs.back().best)) {
        privacy::GpMechanism sized = m;
        sized.n = n;
        const PairCodec codec(sized, box, s.extra_test_points, same);
        for (int rule = 0; rule < 5; ++rule) {
          extra.push_back(extend_pair(codec, rungs.back().witness, rule, rng));
        }
      }
      rungs.push_back(run(n, same, 2, extra, objective));
      if (progress) {
        progress(fmt::format("audit: continuation ({}), n = {}: best {:.6g}",
                             same ? "same covariate" : "general", n, rungs.back().best));
      }
    }
    return rungs;
  }
};

std::vector<Start> seeds_from(const std::vector<Found>& rungs) {
  if (rungs.empty() || !std::isfinite(rungs.back().best)) return {};
  return {{rungs.back().witness, "continuation"}};
}

void record_rungs(AuditReport& report, const std::vector<Found>& rungs, bool sensitivity) {
  for (std::size_t k = 0; k < rungs.size(); ++k) {
    if (report.continuation.size() <= k) report.continuation.push_back({});
    auto& rung = report.continuation[k];
    rung.n = rungs[k].witness.X.rows();
    const double v = std::isfinite(rungs[k].best) ? rungs[k].best : 0.0;
    (sensitivity ? rung.sensitivity : rung.lower) =
        std::max(sensitivity ? rung.sensitivity : rung.lower, v);
  }
}

// Describes the order's witness (bounded-response pairs only), flags a violation, reports progress
// and files the order.
void finish_order(const privacy::GpMechanism& m, const Box& box, AuditOrder o, AuditReport& report,
                  const Progress& progress) {
  if (o.witness.X.rows() > 0 && m.lemma != privacy::SensitivityLemma::B8) {
    o.shape = pair_shape(*m.kernel, m.r, m.M_Y, box, o.witness);
  }
  o.violation = exceeds(o.lower, o.proven);
  report.violation = report.violation || o.violation;
  if (progress) {
    progress(fmt::format("audit: α = {:.6g}: proven ε_α = {:.6g}, found {:.6g}{}", o.alpha,
                         o.proven, o.lower, o.violation ? "  VIOLATION" : ""));
  }
  report.orders.push_back(std::move(o));
}

void count(AuditReport& report, const Found& f) {
  report.evaluations += f.evaluations;
  report.singular_skipped += f.singular;
}

using Kind = ObjectiveSpec::Kind;

void gradient_audit(const privacy::GpMechanism& m, const AuditSettings& s, const Box& box,
                    const privacy::RdpCurve& curve, const std::vector<double>& alphas,
                    SeededRng& rng, AuditReport& report, const Progress& progress,
                    tasks::Executor* executor) {
  const Objectives obj{m};
  const ModeSearch search{m, box, s, rng, executor};
  report.anchor_alpha = *std::min_element(alphas.begin(), alphas.end(), [&](double a, double b) {
    return std::abs(a - report.proven.alpha) < std::abs(b - report.proven.alpha);
  });
  const double anchor = report.anchor_alpha;
  auto seeds = [&](bool same, const ObjectiveSpec& objective) {
    if (!s.continuation || m.n == 1) return std::vector<Start>{};
    const bool sensitivity = objective.kind == Kind::Sensitivity;
    const auto rungs = search.ladder(same, objective, progress);
    for (const auto& r : rungs) count(report, r);
    record_rungs(report, rungs, sensitivity);
    return seeds_from(rungs);
  };

  // Same covariates: both releases share Σ, so D_α = α/2 δᵀΣ⁻¹δ at every order and one search
  // (at the anchor order) finds the worst same-covariate pair for all of them.
  const ObjectiveSpec at_anchor{Kind::Divergence, anchor};
  const Found same = search.run(m.n, true, s.restarts, seeds(true, at_anchor), at_anchor);
  count(report, same);
  const std::vector<Start> general_seeds = seeds(false, at_anchor);
  std::vector<Start> previous;
  for (const double alpha : alphas) {
    AuditOrder o;
    o.alpha = alpha;
    o.proven = curve(alpha);
    std::vector<Start> extra = general_seeds;
    extra.insert(extra.end(), previous.begin(), previous.end());
    const Found general = search.run(m.n, false, s.restarts, extra, {Kind::Divergence, alpha});
    count(report, general);
    if (std::isfinite(general.best)) previous = {{general.witness, "previous order"}};
    o.lower = std::max(0.0, general.best);
    o.witness = general.witness;
    o.start = general.start;
    const double same_value =
        pair_renyi_divergence(*m.kernel, m.r, m.sigma, m.eta, same.witness, alpha);
    if (std::isfinite(same_value) && same_value > o.lower) {
      o.lower = same_value;
      o.witness = same.witness;
      o.start = same.start + " (same covariate)";
    }
    finish_order(m, box, std::move(o), report, progress);
  }
  if (same.witness.X.rows() > 0) {
    report.mean_distance = std::max(0.0, obj.mean_distance()(same.witness));
    report.distance_witness = same.witness;
  }

  if (!s.sensitivity) return;
  report.sensitivity_searched = true;
  for (const bool same_mode : {true, false}) {
    const ObjectiveSpec sensitivity{Kind::Sensitivity, 0.0};
    const Found f =
        search.run(m.n, same_mode, s.restarts, seeds(same_mode, sensitivity), sensitivity);
    count(report, f);
    if (std::isfinite(f.best) && f.best > report.sensitivity_lower) {
      report.sensitivity_lower = f.best;
      report.sensitivity_witness = f.witness;
    }
  }
  if (report.sensitivity_witness.X.rows() > 0) {
    report.sensitivity_shape = pair_shape(*m.kernel, m.r, m.M_Y, box, report.sensitivity_witness);
  }
  report.sensitivity_violation = exceeds(report.sensitivity_lower, report.sensitivity_proven);
  report.violation = report.violation || report.sensitivity_violation;
  if (progress) {
    progress(fmt::format("audit: mean sensitivity: proven Δ_n = {:.6g}, found {:.6g}{}",
                         report.sensitivity_proven, report.sensitivity_lower,
                         report.sensitivity_violation ? "  VIOLATION" : ""));
  }
}

// The original search: per order, general and same-covariate Subplex searches; then the
// distance of the exact Gaussian mechanism of same-covariate pairs (of every pair for the
// functional mechanism).
void subplex_audit(const privacy::GpMechanism& m, const AuditSettings& s, const Box& box,
                   const privacy::RdpCurve& curve, const std::vector<double>& alphas,
                   SeededRng& rng, AuditReport& report, const Progress& progress,
                   tasks::Executor* executor) {
  const PairCodec general(m, box, s.extra_test_points, false);
  const PairCodec same(m, box, s.extra_test_points, true);
  // The restarts' starts are drawn here, in the order the sequential search drew them.
  auto search = [&](const PairCodec& codec, const ObjectiveSpec& objective) {
    return run_subplex({m, box, s.extra_test_points, codec.same_covariate()},
                       subplex_starts(codec, s.restarts, rng), objective, s.max_evals, s.threads,
                       executor);
  };
  for (const double alpha : alphas) {
    AuditOrder o;
    o.alpha = alpha;
    o.proven = curve(alpha);
    for (const PairCodec* codec : {&general, &same}) {
      const Found found = search(*codec, {Kind::Divergence, alpha});
      count(report, found);
      if (found.best > o.lower) {
        o.lower = found.best;
        o.witness = found.witness;
      }
    }
    finish_order(m, box, std::move(o), report, progress);
  }
  const bool functional = m.kind == privacy::MechanismKind::Functional;
  const Found found = search(functional ? general : same, {Kind::MeanDistance, 0.0});
  count(report, found);
  report.mean_distance = std::max(0.0, found.best);
  report.distance_witness = found.witness;
}

}  // namespace

std::string to_string(AuditSearch search) {
  return search == AuditSearch::Gradient ? "gradient" : "subplex";
}

AuditSearch parse_audit_search(const std::string& name) {
  std::string s = name;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  if (s == "gradient") return AuditSearch::Gradient;
  if (s == "subplex") return AuditSearch::Subplex;
  throw InputError(fmt::format("unknown audit search '{}': expected gradient or subplex", name));
}

AuditReport audit(const privacy::GpMechanism& m, const AuditSettings& s, const Progress& progress,
                  tasks::Executor* executor) {
  require_parameter(m.kernel.has_value(), "kernel", "audit: needs a concrete kernel");
  require_parameter(
      m.kind == privacy::MechanismKind::PosteriorSample ||
          m.kind == privacy::MechanismKind::Functional,
      "mechanism",
      fmt::format("audit: searches the GP mechanisms only; the {}'s curve is the exact "
                  "Rényi divergence of its worst neighbours (docs/privacy.md, checked "
                  "by tests/test_release_grid_mean.cpp)",
                  to_string(m.kind)));
  require(std::isfinite(m.sigma),
          "audit: needs a finite σ (the auditor samples concrete posteriors)");
  if (s.restarts < 0 || s.max_evals < 1 || s.extra_test_points < 0) {
    throw ParameterError({"restarts", "max_evals", "extra_test_points"},
                         "audit: restarts must be ≥ 0, max_evals ≥ 1 and extra_test_points ≥ 0");
  }
  require_parameter(
      s.extra_test_points <= 50, "extra_test_points",
      fmt::format("audit: extra_test_points must be at most 50, got {}", s.extra_test_points));
  require(s.threads >= 0, fmt::format("audit: threads must be ≥ 0, got {}", s.threads));
  // Lemma B.8's responses y = f*(x) are not free variables, and the functional mechanism's process
  // divergence has no gradient here: both keep the original search.
  const AuditSearch search =
      m.lemma == privacy::SensitivityLemma::B8 || m.kind == privacy::MechanismKind::Functional
          ? AuditSearch::Subplex
          : s.search;
  const long max_n = search == AuditSearch::Subplex ? 50 : 400;
  require(m.n <= max_n, fmt::format("audit: n = {} is too large for the {} search (≤ {})", m.n,
                                    to_string(search), max_n));
  require_parameter(search == AuditSearch::Gradient || s.restarts >= 1, "restarts",
                    "audit: the subplex search needs restarts ≥ 1");
  const auto bounds = privacy::resolve_bounds(m);
  const privacy::RdpCurve curve = privacy::rdp_curve(m, bounds);
  const Box box = m.domain ? *m.domain : Box::unit(m.dim);

  AuditReport report;
  report.search = search;
  report.draws = s.draws;
  report.sensitivity_proven = bounds.Delta_n;
  report.proven = privacy::account(m, s.draws, s.delta, s.conversion);
  const std::vector<double> alphas = audit_orders(s, curve, report.proven.alpha);
  SeededRng rng(s.seed);
  report.rng = rng.description();
  if (search == AuditSearch::Gradient) {
    gradient_audit(m, s, box, curve, alphas, rng, report, progress, executor);
  } else {
    subplex_audit(m, s, box, curve, alphas, rng, report, progress, executor);
  }
  // (ε, δ): neighbours with the same covariates make an exact Gaussian mechanism; its exact ε(δ)
  // (Balle & Wang 2018, L draws scaling the distance by √L) is a lower bound on the mechanism's.
  report.epsilon_lower = analytic_gaussian_epsilon(
      report.mean_distance * std::sqrt(static_cast<double>(s.draws)), s.delta);
  if (exceeds(report.epsilon_lower, report.proven.epsilon)) report.violation = true;
  return report;
}

}  // namespace gpdp::auditor
