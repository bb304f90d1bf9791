// `--mechanism auto` (auto_mechanism.hpp): plan (public), summary, simulated choice, release.
#include "gpdp/release/auto_mechanism.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "gpdp/error.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/interval.hpp"
#include "gpdp/privacy/envelope.hpp"
#include "gpdp/release/evaluation.hpp"
#include "gpdp/release/map_mechanism.hpp"
#include "gpdp/release/prepared_release.hpp"
#include "gpdp/release/release.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/prior.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;
using privacy::CalibrationParameter;
using privacy::MechanismKind;

// The public rules of the candidates (docs/utility.md "Choosing automatically").
constexpr double kSignSigma = 0.05;        // posterior sample on the sign response: σ
constexpr double kFunctionalRidge = 10.0;  // functional: its public ridge r (s solved)
constexpr int kVoteDraws = 3;              // L-path vote on the sign response: L paths, majority

void check_auto_request(const ReleaseRequest& q) {
  const AutoSpec& s = *q.auto_mechanism;
  if (!q.calibration.has_value())
    throw ParameterError(
        {"target_epsilon", "mechanism"},
        "mechanism auto needs target_epsilon (the total ε, the choosing included)");
  if (!(std::isfinite(s.choose_fraction) && s.choose_fraction > 0 && s.choose_fraction < 1))
    throw ParameterError({"choose_fraction", "mechanism"},
                         fmt::format("mechanism auto: choose_fraction must lie in (0, 1), got {}",
                                     s.choose_fraction));
  if (q.preview)
    throw ParameterError({"config_from", "mechanism"},
                         "mechanism auto chooses its own configuration: no config_from");
  if (q.keep_path)
    throw ParameterError({"keep_path", "mechanism"},
                         "mechanism auto: keep_path is not supported (a candidate may be the "
                         "functional release or the trivial map, which keep no path)");
  if (q.smooth != 0)
    throw ParameterError(
        {"smooth", "mechanism"},
        "mechanism auto: smooth is not supported (the simulated maps are unsmoothed)");
  if (q.prior_mean)
    throw ParameterError({"prior_mean", "mechanism"},
                         "mechanism auto chooses the prior mean itself: no prior_mean");
  if (!q.cells.empty())
    throw ParameterError({"cells", "mechanism"}, "mechanism auto chooses its cell table: no cells");
  if (q.grid_map)
    throw ParameterError({"grid_map", "mechanism"}, "mechanism auto chooses the map: no grid_map");
  if (q.snap_covariates)
    throw ParameterError({"snap_covariates", "mechanism"},
                         "mechanism auto: snap_covariates is not supported (it applies to the "
                         "posterior sample on a whole grid only)");
  if (q.draws != 1)
    throw ParameterError({"draws", "mechanism"},
                         "mechanism auto releases one map: draws must be 1");
  if (q.mechanism.eta != 0)
    throw ParameterError({"eta", "mechanism"}, "mechanism auto: eta is not supported");
}

// The records under another public response transform, with the original's identity.
ValidatedRelease revalidated(const ReleaseRequest& q, const ValidatedRelease& v) {
  ValidatedRelease out = validated(
      q, prepare_data_from_arrays(v.prepared.raw_covariates, v.prepared.raw_response, q.input),
      v.evaluation);
  out.prepared.sha256 = v.prepared.sha256;
  out.prepared.file_bytes = v.prepared.file_bytes;
  out.prepared.numeric_rows = v.prepared.numeric_rows;
  out.release_uid = v.release_uid;
  out.reserved = v.reserved;
  return out;
}

// The sign of the centred response, sign(transform(y) − t) ∈ {−1, 0, 1}, M_Y = 1.
InputSpec sign_input(const ReleaseRequest& q) {
  InputSpec in = q.input;
  in.sign = true;
  in.center = q.threshold;
  in.scale = 1.0;
  in.M_Y = 1.0;
  return in;
}

// A candidate's request from the base: one mechanism of one draw, calibrated at `epsilon`.
ReleaseRequest candidate_request(const ReleaseRequest& base, MechanismKind kind, bool sign,
                                 double epsilon) {
  ReleaseRequest c = base;
  c.auto_mechanism.reset();
  c.selection.reset();
  c.mechanism.kind = kind;
  c.mechanism.noise_scale = privacy::has_noise_scale(kind) ? 1.0 : 0.0;
  if (sign) c.input = sign_input(base);
  const CalibrationParameter p =
      privacy::has_noise_scale(kind) ? CalibrationParameter::Noise : CalibrationParameter::R;
  c.calibration = CalibrationGoal{p, epsilon};
  return c;
}

Box model_domain(const ReleaseRequest& q, const ValidatedRelease& v) {
  return v.geo ? v.geo->model_domain() : *q.input.domain;
}

// The candidates at the per-candidate target E_c: their requests and own accountings.
void calibrate_candidates(std::vector<AutoCandidate>& cands, double epsilon) {
  for (auto& c : cands) {
    if (c.trivial) continue;
    c.request.calibration->target_epsilon = epsilon;
    c.accounting = account_composition(c.request, c.validated);
  }
}

std::vector<privacy::Accountant> compositions(const std::vector<AutoCandidate>& cands) {
  std::vector<privacy::Accountant> out;
  for (const auto& c : cands)
    if (!c.trivial) out.push_back(c.accounting.composition);
  return out;
}

}  // namespace

namespace {

// The summary S at `summary_epsilon`: the grid mean on sign(y − t), σ = r = 1 (a sign's within-cell
// variance is at most 1), coarse cells by the UG rule at that ε, at most kAutoSummaryMaxCells.
// With `labels` (the calibrated preview): the label statistic at half of it, the cells' UG rule at
// the other half.
constexpr double kLabelStatisticFraction = 0.5;
void plan_summary(AutoPlan& plan, const ReleaseRequest& q, const ValidatedRelease& v,
                  double summary_epsilon, bool labels) {
  const long n = v.prepared.data.n();
  ReleaseRequest s = candidate_request(q, MechanismKind::GridMean, true, summary_epsilon);
  s.mechanism.r = 1.0;
  s.mechanism.sigma = 1.0;
  if (labels) s.label_statistic_fraction = kLabelStatisticFraction;
  const double table_epsilon =
      labels ? (1 - kLabelStatisticFraction) * summary_epsilon : summary_epsilon;
  const double cell_epsilon =
      std::min(table_epsilon, static_cast<double>(kAutoSummaryMaxCells) * kGridMeanUgConstant /
                                  static_cast<double>(n));
  s.cells = ug_cells(model_domain(q, v), n, cell_epsilon).counts;
  plan.summary_validated = revalidated(s, v);
  plan.summary_request = s;
  plan.summary_accounting = account_composition(s, plan.summary_validated);
}

// The candidates, simplest first, each calibrated to `epsilon` (plan_auto lowers it to E_c).
void plan_candidates(AutoPlan& plan, const ReleaseRequest& q, const ValidatedRelease& v,
                     double epsilon) {
  ReleaseRequest base = q;
  base.prior_mean.reset();
  const ValidatedRelease sign_v =
      revalidated(candidate_request(q, MechanismKind::GridMean, true, epsilon), v);
  const auto add = [&](std::string name, MechanismKind kind, bool sign,
                       const std::function<void(ReleaseRequest&)>& tune) {
    AutoCandidate c;
    c.name = std::move(name);
    c.request = candidate_request(base, kind, sign, epsilon);
    tune(c.request);
    c.validated = sign ? sign_v : v;
    plan.candidates.push_back(std::move(c));
  };
  {
    AutoCandidate trivial;
    trivial.name = "trivial map (the summary's side; a reference only, not a candidate)";
    trivial.trivial = true;
    trivial.constant = true;
    plan.candidates.push_back(std::move(trivial));
  }
  const auto none = [](ReleaseRequest&) {};
  // The majority side: the constant map at the side of one cell's noisy mean, at E_c (the whole
  // E is charged whichever candidate wins, so the summary's side at f·E would waste it).
  add("majority side (one-cell grid mean, sign)", MechanismKind::GridMean, true,
      [&](ReleaseRequest& c) {
        c.grid_map = GridMap::Cells;
        c.cells = std::vector<long>(static_cast<std::size_t>(model_domain(q, v).dim()), 1);
      });
  plan.candidates.back().constant = true;
  add("grid mean + GP (sign)", MechanismKind::GridMean, true, none);
  add("grid mean + GP", MechanismKind::GridMean, false, none);
  add(fmt::format("posterior sample σ = {} (sign)", kSignSigma), MechanismKind::PosteriorSample,
      true, [](ReleaseRequest& c) { c.mechanism.sigma = kSignSigma; });
  add(fmt::format("{}-path vote σ = {} (sign)", kVoteDraws, kSignSigma),
      MechanismKind::PosteriorSample, true, [](ReleaseRequest& c) {
        c.mechanism.sigma = kSignSigma;
        c.draws = kVoteDraws;
        c.vote_cutoff = 0.5;
      });
  add(fmt::format("functional, r = {}", kFunctionalRidge), MechanismKind::Functional, false,
      [](ReleaseRequest& c) { c.mechanism.r = kFunctionalRidge; });
}

}  // namespace

AutoPlan plan_auto(const ReleaseRequest& q, const ValidatedRelease& v) {
  check_auto_request(q);
  AutoPlan plan;
  plan.spec = *q.auto_mechanism;
  plan.input = q.input;
  const double E = q.calibration->target_epsilon;
  plan.target_epsilon = E;
  const double fE = plan.spec.choose_fraction * E;
  plan_summary(plan, q, v, fE, false);
  plan_candidates(plan, q, v, E);

  // The common per-candidate target E_c: the largest (bisection, log scale) with the summary plus
  // the envelope within E.
  const privacy::Accountant& summary = plan.summary_accounting.composition;
  const auto total_at = [&](double ec) {
    calibrate_candidates(plan.candidates, ec);
    return privacy::summary_then_choice(summary, compositions(plan.candidates));
  };
  const auto fits = [&](double ec) {
    return total_at(ec).epsilon(q.delta, q.conversion).epsilon <= E;
  };
  double lo = E - fE, hi = E;
  for (int k = 0; k < 40 && !fits(lo); ++k) {
    hi = lo;
    lo /= 2;
  }
  require_parameter(fits(lo), "mechanism",
                    fmt::format("mechanism auto: no common candidate target fits ε = {}", E));
  for (int k = 0; k < 7; ++k) {  // E_c within a factor (hi/lo)^(1/128) of the largest that fits
    const double mid = std::sqrt(lo * hi);
    (fits(mid) ? lo : hi) = mid;
  }
  plan.candidate_epsilon = lo;
  plan.total = total_at(lo);
  plan.guarantee = plan.total.epsilon(q.delta, q.conversion);
  require_parameter(plan.guarantee.epsilon <= E * (1 + 1e-12), "mechanism",
                    fmt::format("mechanism auto: the total ε = {} exceeds the target {}",
                                plan.guarantee.epsilon, E));
  return plan;
}

AutoPlan plan_auto_at(const ReleaseRequest& q, const ValidatedRelease& v, double summary_epsilon,
                      double candidate_epsilon) {
  check_auto_request(q);
  require_parameter(
      std::isfinite(summary_epsilon) && summary_epsilon > 0, "calibrate_epsilon",
      fmt::format("the summary's ε must be positive and finite, got {}", summary_epsilon));
  require_parameter(
      std::isfinite(candidate_epsilon) && candidate_epsilon > 0, "epsilons",
      fmt::format("a candidate target ε must be positive and finite, got {}", candidate_epsilon));
  AutoPlan plan;
  plan.spec = *q.auto_mechanism;
  plan.input = q.input;
  plan.target_epsilon = candidate_epsilon;
  plan_summary(plan, q, v, summary_epsilon, true);
  plan_candidates(plan, q, v, candidate_epsilon);
  calibrate_candidates(plan.candidates, candidate_epsilon);
  plan.candidate_epsilon = candidate_epsilon;
  plan.total = privacy::summary_then_choice(plan.summary_accounting.composition,
                                            compositions(plan.candidates));
  plan.guarantee = plan.total.epsilon(q.delta, q.conversion);
  return plan;
}

ReleaseAccounting planned_accounting(const AutoPlan& plan) {
  ReleaseAccounting a = plan.summary_accounting;
  a.composition = plan.total;
  a.guarantee = plan.guarantee;
  a.risk = privacy::attack_risk(a.composition, a.guarantee);
  return a;
}

namespace {

// ---- the simulations ---------------------------------------------------------------------------

// `count` points drawn from the noisy-count density: cell ∝ max(Ñ_c, 0), uniform within it.
Points simulated_locations(const CellTable& t, long count, Rng& rng) {
  const Eigen::Index C = t.counts.size();
  std::vector<double> cumulative(static_cast<std::size_t>(C));
  double total = 0;
  for (Eigen::Index c = 0; c < C; ++c) {
    total += std::max(t.counts(c), 0.0);
    cumulative[static_cast<std::size_t>(c)] = total;
  }
  const int d = t.layout.domain.dim();
  Points X(count, d);
  for (long i = 0; i < count; ++i) {
    Eigen::Index c = 0;
    if (total > 0) {
      const double u = rng.uniform01() * total;
      c = std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
      c = std::min(c, C - 1);
    } else {
      c = static_cast<Eigen::Index>(rng.uniform01() * static_cast<double>(C)) % C;
    }
    const Box b = t.layout.bounds(c);
    for (int a = 0; a < d; ++a)
      X(i, a) = b.lower()(a) + rng.uniform01() * (b.upper()(a) - b.lower()(a));
  }
  return X;
}

// The request a candidate runs with on simulated data of n_sim records: its calibrated
// parameters, fixed, scaled so the information per unit area is the real n's (header).
ReleaseRequest simulated_request(const AutoCandidate& c, long n, long n_sim, const Box& domain) {
  ReleaseRequest s = c.request;
  const privacy::GpMechanism& m = c.accounting.mechanism;
  const double ratio = static_cast<double>(n_sim) / static_cast<double>(n);
  s.calibration.reset();
  s.input.crs.clear();
  s.input.model_crs.clear();
  s.input.domain = domain;
  s.input.policy = ResponsePolicy::Clip;
  s.sampler = SamplerMethod::Auto;
  s.mechanism.r = m.r;
  s.mechanism.sigma = m.sigma;
  s.mechanism.eta = m.eta;
  s.mechanism.noise_scale = m.noise_scale;
  if (m.kind == MechanismKind::GridMean) {
    // Cells scaled by the ratio (the records per cell are the real ones) and the noise by its
    // square root: over an area, the real map's noisy cell sums average ratio⁻¹ times as many
    // noise draws of scale s as the simulation's, so its privacy noise per record is the real
    // one (docs/utility.md).
    s.mechanism.noise_scale = m.noise_scale * std::sqrt(ratio);
    s.mechanism.count_noise = privacy::grid_mean_count_noise(m) * std::sqrt(ratio);
    const auto cells = static_cast<double>(grid_mean_layout(m).size());
    s.cells = ratio < 1 ? square_cells(domain, cells * ratio).counts : m.cells;
  } else {
    s.mechanism.r = m.r * std::sqrt(ratio);
  }
  if (c.accounting.prior_mean) s.prior_mean->noise = c.accounting.prior_mean->noise_scale;
  return s;
}

// The released set of a seeded release on simulated records: the stages of PreparedRelease (the
// same validation, map mechanism, snapping and released set) without its attack risk.
Eigen::VectorXd simulated_set(const ReleaseRequest& r, const Points& X, const Eigen::VectorXd& raw,
                              Evaluation evaluation, std::uint64_t seed) {
  const ValidatedRelease v = validated(
      r, prepare_data_from_arrays(X, raw, r.input, "simulated records"), std::move(evaluation));
  const ReleaseAccounting a = account_composition(r, v);
  SeededRng rng(seed);
  SnappedDraws d = MapMechanism(draw_spec(r, v, a)).draw(rng, false);
  return released_paths(r, v, a, std::move(d)).in_set;
}

// A regular lattice over the box with about `nodes` nodes and the same spacing h on every axis
// (h^d = volume / nodes), at least two nodes per axis.
Grid lattice_over(const Box& box, double nodes) {
  const int d = box.dim();
  const Eigen::VectorXd sides = box.upper() - box.lower();
  const double h = std::pow(sides.prod() / nodes, 1.0 / d);
  std::vector<GridAxis> axes;
  for (int a = 0; a < d; ++a)
    axes.push_back({box.lower()(a), box.upper()(a), std::max(2L, std::lround(sides(a) / h) + 1)});
  return Grid(std::move(axes));
}

// The index in Grid::points() order (first axis fastest) of each point's nearest node.
std::vector<Eigen::Index> nearest_nodes(const Grid& grid, const Points& X) {
  std::vector<Eigen::Index> out(static_cast<std::size_t>(X.rows()));
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    Eigen::Index index = 0, stride = 1;
    for (int a = 0; a < grid.dim(); ++a) {
      const GridAxis& axis = grid.axes()[static_cast<std::size_t>(a)];
      const double step = axis.step();
      const long j = step > 0 ? std::lround((X(i, a) - axis.lo) / step) : 0;
      index += std::clamp(j, 0L, axis.count - 1) * stride;
      stride *= axis.count;
    }
    out[static_cast<std::size_t>(i)] = index;
  }
  return out;
}

// The simulated truth: record i is above t when g(x_i) + ζ(x_i) > 0, where g is a draw of the
// summary's GP (the sign's expectation) and ζ = 2Φ(z) − 1 with z ~ GP(0, k) at the public kernel.
// ζ is uniform on (−1, 1) at every x, so P(above | g) = (1 + g)/2, the summary's share; and it is
// coherent over ℓ, so neighbouring records agree as real ones do (independent labels make every
// map look alike and worse than on real data, docs/utility.md). Both fields live on public
// lattices over the domain (g on ≈ kShareNodes nodes, ζ on ≈ kNoiseNodes: circulant embedding up
// to 2-D, dense above) and a record takes its nearest node's values.
class SimulatedTruth {
 public:
  SimulatedTruth(const CellPosterior& cp, const Box& domain)
      : cp_(cp),
        share_(lattice_over(domain, kShareNodes)),
        noise_(lattice_over(domain, domain.dim() <= 2 ? kNoiseNodes : kShareNodes)),
        prior_(cp.posterior.kernel(), noise_.points(), noise_, {}) {}

  // ±1 per point, one draw of (g, ζ). With a nugget ν > 0 (the calibrated preview's label
  // statistic), ζ = 2Φ(√(1−ν)·z + √ν·e) − 1, e ~ N(0, 1) per point: still uniform on (−1, 1) at
  // every x, less coherent between neighbours.
  Eigen::VectorXd sides(const Points& X, Rng& rng, double nugget = 0.0) {
    const Eigen::VectorXd g = sample(cp_.posterior, share_, 1, rng).values.col(0);
    const Eigen::VectorXd z = prior_.draw(rng, 1).col(0);
    Eigen::VectorXd e = Eigen::VectorXd::Zero(X.rows());
    if (nugget > 0) rng.fill_standard_normal(e.data(), static_cast<std::size_t>(e.size()));
    const double a = std::sqrt(1.0 - nugget), b = std::sqrt(nugget);
    const auto gi = nearest_nodes(share_, X), zi = nearest_nodes(noise_, X);
    Eigen::VectorXd side(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      const double latent = nugget > 0 ? a * z(zi[static_cast<std::size_t>(i)]) + b * e(i)
                                       : z(zi[static_cast<std::size_t>(i)]);
      const double zeta = std::erfc(-latent / std::sqrt(2.0)) - 1.0;
      side(i) = g(gi[static_cast<std::size_t>(i)]) + cp_.prior_mean + zeta > 0 ? 1.0 : -1.0;
    }
    return side;
  }

 private:
  static constexpr double kShareNodes = 1024;
  static constexpr double kNoiseNodes = 16384;
  const CellPosterior& cp_;
  Grid share_, noise_;
  PriorSampler prior_;
};

// The raw response whose transformed value is z (the inverse of the public transform).
double raw_of(double z, ResponseTransform t) {
  return t == ResponseTransform::Log ? std::exp(z) : z;
}

std::string percent(double x) { return fmt::format("{:.3f}", x); }

}  // namespace

json to_json(const AutoPrediction& p) {
  return {{"accuracy", p.accuracy}, {"lo", p.lo}, {"hi", p.hi}, {"iou", p.iou}};
}

namespace {
// The standard error of mean(a − b) over paired samples.
double paired_standard_error(const std::vector<double>& a, const std::vector<double>& b) {
  const auto S = static_cast<double>(a.size());
  if (a.size() < 2) return 0.0;
  double mean = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) mean += a[k] - b[k];
  mean /= S;
  double squares = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) squares += (a[k] - b[k] - mean) * (a[k] - b[k] - mean);
  return std::sqrt(squares / (S - 1) / S);
}

}  // namespace

OneStandardErrorChoice one_standard_error_choice(const std::vector<std::vector<double>>& accuracy,
                                                 std::size_t first, double least_margin) {
  const std::size_t K = accuracy.size();
  require(first < K, "one_standard_error_choice: no candidate");
  const auto mean = [&](std::size_t c) {
    return std::accumulate(accuracy[c].begin(), accuracy[c].end(), 0.0) /
           static_cast<double>(accuracy[c].size());
  };
  OneStandardErrorChoice out{first, first, std::vector<double>(K, 0.0)};
  for (std::size_t c = first + 1; c < K; ++c)
    if (mean(c) > mean(out.top)) out.top = c;
  out.winner = out.top;
  for (std::size_t c = K; c-- > first;) {
    out.margins[c] = std::max(least_margin, paired_standard_error(accuracy[out.top], accuracy[c]));
    if (mean(c) >= mean(out.top) - out.margins[c]) out.winner = c;
  }
  return out;
}

namespace {

// D and P of simulated data sets at each nugget (kLabelNuggetDraws each): locations from the
// summary's noisy counts, sides from the simulated truth, the statistic's cells; at most
// kAutoSimulatedGridRecords records (with more, the cells of that many).
std::vector<std::vector<LabelCounts>> simulated_label_counts(const LabelStatistic& observed,
                                                             const CellTable& table,
                                                             SimulatedTruth& truth) {
  const long n = std::min(observed.n, kAutoSimulatedGridRecords);
  const CellLayout cells = n == observed.n ? observed.cells : label_cells(table.layout.domain, n);
  const SeededRng root(kAutoSimulationSeed + 1);
  std::vector<std::vector<LabelCounts>> out;
  for (std::size_t j = 0; j < kLabelNuggets.size(); ++j) {
    out.emplace_back();
    for (int m = 0; m < kLabelNuggetDraws; ++m) {
      SeededRng rng = root.split(static_cast<std::uint64_t>(j) * kLabelNuggetDraws +
                                 static_cast<std::uint64_t>(m));
      const Points X = simulated_locations(table, n, rng);
      out.back().push_back(label_counts(cells, X, truth.sides(X, rng, kLabelNuggets[j])));
    }
  }
  return out;
}

}  // namespace

std::vector<double> label_nugget_weights(const AutoPlan& plan, const AutoSummary& summary) {
  if (!summary.labels) return {};
  const CellPosterior cp = cell_posterior(summary.table, plan.summary_accounting.mechanism);
  SimulatedTruth truth_model(cp, summary.table.layout.domain);
  return nugget_weights(*summary.labels,
                        simulated_label_counts(*summary.labels, summary.table, truth_model));
}

AutoChoice choose_candidate(const AutoPlan& plan, const AutoSummary& summary,
                            const std::vector<double>& nugget_weights) {
  require(summary.labels.has_value() != nugget_weights.empty(),
          "choose_candidate: nugget weights exactly with the label statistic");
  AutoChoice choice{summary.table, {}, 0, {}, false, {}};
  const CellTable& table = choice.summary;
  const ReleaseRequest& sq = plan.summary_request;
  const CellPosterior cp = cell_posterior(table, plan.summary_accounting.mechanism);
  const bool trivial_above = cp.prior_mean >= 0;
  const long n = plan.summary_validated.prepared.data.n();
  const long n_sim = std::min(n, kAutoSimulatedRecords);
  const long n_grid = std::min(n, kAutoSimulatedGridRecords);
  const long n_test = kAutoSimulatedTests;
  const Box domain = table.layout.domain;
  const auto& names = plan.summary_validated.prepared.data.covariate_names;
  const double t = sq.threshold;
  const double B = plan.input.scale.value_or(1.0);  // the public response scale
  const ResponseTransform transform = plan.input.transform;

  const std::size_t K = plan.candidates.size();
  std::vector<std::vector<double>> accuracy(K), iou(K);
  const SeededRng root(kAutoSimulationSeed);
  SimulatedTruth truth_model(cp, domain);
  choice.nuggets = nugget_weights.empty()
                       ? std::vector<double>(static_cast<std::size_t>(kAutoSimulations), 0.0)
                       : stratified_nuggets(nugget_weights, kAutoSimulations);
  for (int k = 0; k < kAutoSimulations; ++k) {
    SeededRng rng = root.split(static_cast<std::uint64_t>(k));
    // Held-out records first, then n_grid training records; the first n_sim of those train the
    // candidates that run on thinned data.
    const Points X = simulated_locations(table, n_test + n_grid, rng);
    const Eigen::VectorXd side =
        truth_model.sides(X, rng, choice.nuggets[static_cast<std::size_t>(k)]);
    const Points test = X.topRows(n_test), train_grid = X.bottomRows(n_grid),
                 train = train_grid.topRows(n_sim);
    Eigen::VectorXd raw_grid(n_grid);
    for (long i = 0; i < n_grid; ++i)
      raw_grid(i) = raw_of(t + side(n_test + i) * B * rng.uniform01(), transform);
    const Eigen::VectorXd raw = raw_grid.head(n_sim);
    const Eigen::VectorXd truth = (side.head(n_test).array() > 0).cast<double>();
    const auto score = [&](std::size_t c, const Eigen::VectorXd& set) {
      const Eigen::ArrayXd s = (set.array() > 0.5).cast<double>();
      accuracy[c].push_back((s == truth.array()).cast<double>().mean());
      const double inter = (s * truth.array()).sum();
      const double uni = ((s + truth.array()) > 0).cast<double>().sum();
      iou[c].push_back(uni == 0 ? 1.0 : inter / uni);
    };
    for (std::size_t c = 0; c < K; ++c) {
      const AutoCandidate& cand = plan.candidates[c];
      if (cand.trivial) {
        score(c, Eigen::VectorXd::Constant(n_test, trivial_above ? 1.0 : 0.0));
        continue;
      }
      const bool grid = cand.accounting.mechanism.kind == MechanismKind::GridMean;
      score(c, simulated_set(simulated_request(cand, n, grid ? n_grid : n_sim, domain),
                             grid ? train_grid : train, grid ? raw_grid : raw,
                             evaluation_at(test, names, domain),
                             kAutoSimulationSeed + 1000 * static_cast<std::uint64_t>(k) + c));
    }
  }

  for (std::size_t c = 0; c < K; ++c) {
    const Interval a = interval(accuracy[c]);
    choice.predictions.push_back(
        {a.mean, a.lo, a.hi,
         std::accumulate(iou[c].begin(), iou[c].end(), 0.0) / static_cast<double>(iou[c].size())});
  }
  // [0], the summary's side, is a reference only: it is never chosen.
  double best_constant = choice.predictions[0].accuracy;
  double best_varying = 0.0;
  for (std::size_t c = 1; c < K; ++c) {
    double& best_of_kind = plan.candidates[c].constant ? best_constant : best_varying;
    best_of_kind = std::max(best_of_kind, choice.predictions[c].accuracy);
  }
  const OneStandardErrorChoice rule = one_standard_error_choice(accuracy, 1, kAutoTieMargin);
  choice.winner = rule.winner;
  const AutoPrediction& triv = choice.predictions[0];
  choice.useless = best_varying <= best_constant + kAutoUsefulMargin;

  // The report (the certificate's "auto" block).
  const privacy::Guarantee summary_alone = plan.summary_accounting.composition.epsilon(
      plan.summary_request.delta, plan.summary_request.conversion);
  const privacy::Guarantee map_alone =
      privacy::Accountant()
          .add_choice(compositions(plan.candidates))
          .epsilon(plan.summary_request.delta, plan.summary_request.conversion);
  json candidates = json::array();
  for (std::size_t c = 0; c < K; ++c) {
    const AutoCandidate& cand = plan.candidates[c];
    json j{{"name", cand.name}, {"predicted", to_json(choice.predictions[c])}};
    if (c > 0) j["margin"] = rule.margins[c];  // the 1-SE rule's margin against the highest
    if (cand.trivial) {
      j["configuration"] = {{"side", trivial_above ? "everywhere exceeds" : "nowhere exceeds"}};
      j["epsilon"] = 0.0;
    } else {
      const auto& m = cand.accounting.mechanism;
      j["configuration"] = {{"mechanism", privacy::to_string(m.kind)},
                            {"response", cand.request.input.sign ? "sign(y − t)" : "y"},
                            {"r", m.r},
                            {"sigma", m.sigma},
                            {"ell", m.kernel->lengthscale()}};
      if (privacy::has_noise_scale(m.kind)) j["configuration"]["noise_scale"] = m.noise_scale;
      if (m.kind == MechanismKind::GridMean) j["configuration"]["cells"] = m.cells;
      if (cand.accounting.prior_mean)
        j["configuration"]["prior_mean_noise"] = cand.accounting.prior_mean->noise_scale;
      j["epsilon"] = cand.accounting.guarantee.epsilon;
    }
    candidates.push_back(j);
  }
  const AutoCandidate& won = plan.candidates[choice.winner];
  const AutoPrediction& wp = choice.predictions[choice.winner];
  const double E = plan.target_epsilon;
  std::string line = fmt::format(
      "{} — predicted accuracy {} [{}, {}] vs trivial {}; choosing cost ε {:.3g} of {:.3g}",
      won.name, percent(wp.accuracy), percent(wp.lo), percent(wp.hi), percent(triv.accuracy),
      summary_alone.epsilon, E);
  if (choice.useless) {
    line += fmt::format(
        "; no candidate is predicted better than the trivial map by more than {} (the map is "
        "likely no more useful than 'nowhere/everywhere exceeds')",
        kAutoUsefulMargin);
  }
  choice.report = {
      {"rule",
       "a DP summary (the grid mean on sign(y − t) over coarse public cells, ε_choose = "
       "--choose-fraction × target) calibrates simulated data sets (locations from its noisy "
       "counts, the share above t from a draw of its post-processing GP, labels coherent over "
       "the kernel's length scale); every candidate runs "
       "on them through the release's own map mechanism and is scored at simulated held-out "
       "records; the one-standard-error rule chooses: the simplest candidate (listed first) whose "
       "mean accuracy is within max(tie margin, the standard error of its paired difference "
       "with the highest) of the highest"},
      {"composition",
       "Mironov 2017, Prop. 1 (adaptive sequential composition): the summary's RDP curve plus the "
       "envelope max_k ε_α(C_k) of the candidates, each calibrated to the common per-candidate "
       "target (docs/privacy.md)"},
      {"target_epsilon", E},
      {"choose_fraction", plan.spec.choose_fraction},
      {"epsilon_choosing", summary_alone.epsilon},
      {"epsilon_map", map_alone.epsilon},
      {"epsilon_total", plan.guarantee.epsilon},
      {"candidate_target_epsilon", plan.candidate_epsilon},
      {"summary",
       {{"mechanism", "grid-mean"},
        {"response", "sign(y − t)"},
        {"cells", table.layout.counts},
        {"noise_scale", plan.summary_accounting.mechanism.noise_scale},
        {"share_above", (1.0 + cp.prior_mean) / 2.0},
        {"table", to_json(table)}}},
      {"simulation",
       {{"data_sets", kAutoSimulations},
        {"records", n_sim},
        {"grid_mean_records", n_grid},
        {"held_out", n_test},
        {"labels", "sign(g + ζ): g the summary's GP, ζ = 2Φ(z) − 1, z ~ GP(0, k)"},
        {"thinned", n_sim < n},
        {"seed", kAutoSimulationSeed}}},
      {"tie_margin", kAutoTieMargin},
      {"useful_margin", kAutoUsefulMargin},
      {"candidates", candidates},
      {"chosen", won.name},
      {"predicted", to_json(wp)},
      {"trivial_predicted", to_json(triv)},
      {"useless", choice.useless},
      {"line", line}};
  if (summary.labels) {
    json ls = to_json(*summary.labels);
    ls["nuggets"] = kLabelNuggets;
    ls["prior"] = kLabelNuggetPrior;
    ls["weights"] = nugget_weights;
    ls["simulated_nuggets"] = choice.nuggets;
    choice.report["label_statistic"] = ls;
    choice.report["simulation"]["labels"] =
        "sign(g + ζ): g the summary's GP, ζ = 2Φ(√(1−ν)·z + √ν·e) − 1, z ~ GP(0, k), e ~ N(0, 1) "
        "per record, the nugget ν of each data set from the label statistic's weights";
  }
  return choice;
}

AutoSummary draw_summary(const AutoPlan& plan, const std::optional<std::uint64_t>& insecure_seed) {
  DrawSpec spec = draw_spec(plan.summary_request, plan.summary_validated, plan.summary_accounting);
  // A seeded release: the summary's own stream (NOT private either way).
  spec.insecure_seed.reset();
  if (insecure_seed) spec.insecure_seed = *insecure_seed ^ 0x9e3779b97f4a7c15ULL;
  SnappedDraws d = draw_snapped(spec, false);
  AutoSummary out{std::move(*d.table), std::nullopt};
  if (const auto& m = plan.summary_accounting.label_statistic) {
    // The label statistic (preview only), its own stream of the same kind of generator.
    const auto rng = make_rng(
        insecure_seed ? std::optional<std::uint64_t>(*insecure_seed ^ 0x5851f42d4c957f2dULL)
                      : std::nullopt);
    const CellLayout cells = label_cells(out.table.layout.domain, m->n);
    const ValidatedRelease& v = plan.summary_validated;
    out.labels =
        noisy_label_statistic(cells, label_counts(cells, v.model_covariates(), v.prepared.data.y),
                              m->n, m->noise_scale, *rng);
  }
  return out;
}

AutoChoice draw_summary_and_choose(const AutoPlan& plan,
                                   const std::optional<std::uint64_t>& insecure_seed) {
  const AutoSummary summary = draw_summary(plan, insecure_seed);
  return choose_candidate(plan, summary, label_nugget_weights(plan, summary));
}

ChosenRelease chosen_release(const AutoPlan& plan, std::size_t winner,
                             const nlohmann::json& report) {
  const AutoCandidate& c = plan.candidates.at(winner);
  require_parameter(!c.trivial, "mechanism",
                    "mechanism auto: the summary's side is a reference, not a candidate");
  ChosenRelease out{c.request, c.validated};
  out.request.selection = std::make_shared<const AutoSelection>(
      AutoSelection{plan.summary_accounting.composition, compositions(plan.candidates), report});
  return out;
}

LedgerDecision record_summary(const AutoPlan& plan, const ReleaseAccounting& accounting,
                              const nlohmann::json& note) {
  const ReleaseRequest& q = plan.summary_request;
  LedgerEntry entry = accounting.entry;
  entry.created = utc_timestamp();
  entry.parameters["auto"] = note;
  Ledger ledger(q.ledger_path, q.ledger_key_path);
  return ledger.record(entry, accounting.identity, q.budget, q.conversion, q.budget_orders);
}

namespace {

// --refuse-if-useless: the summary was drawn, so its ε is charged (the refusal is a function of
// its output); its ledger row is marked failed with the reason, and nothing is published.
[[noreturn]] void refuse(const AutoPlan& plan, const AutoChoice& choice) {
  const ReleaseRequest& q = plan.summary_request;
  const ReleaseAccounting a = account(q, plan.summary_validated);
  const LedgerDecision d = record_summary(plan, a, {{"refused", true}, {"report", choice.report}});
  Ledger ledger(q.ledger_path, q.ledger_key_path);
  const std::string why = fmt::format(
      "refuse_if_useless: {}; refused: the summary's ε = {:.4g} was charged (ledger release "
      "{}, marked failed), nothing was published",
      choice.report["line"].get<std::string>(), a.guarantee.epsilon, d.id);
  ledger.mark_failed(d.id, why);
  throw PrivacyError(why, {"refuse_if_useless"});
}

}  // namespace

ReleaseOutcome run_auto_release(const ReleaseRequest& q) {
  const ValidatedRelease v = validate(q);
  const AutoPlan plan = plan_auto(q, v);
  {
    // The ledger's verdict on the total before anything is drawn (public: the same record
    // whichever candidate wins).
    const ChosenRelease any = chosen_release(plan, 1, nullptr);
    account(any.request, any.validated);
  }
  const AutoChoice choice = draw_summary_and_choose(plan, q.insecure_seed);
  if (choice.useless && plan.spec.refuse_if_useless) refuse(plan, choice);
  const ChosenRelease chosen = chosen_release(plan, choice.winner, choice.report);
  const ReleaseAccounting a = account(chosen.request, chosen.validated);
  const ReleasedPaths p = draw_and_snap(chosen.request, chosen.validated, a);
  return render_certify_publish(chosen.request, chosen.validated, a, p);
}

}  // namespace gpdp::release
