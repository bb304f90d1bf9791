#include "gpdp/preview/preview.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>

#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/public_search.hpp"
#include "gpdp/experiments/search.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/preview/candidates.hpp"
#include "gpdp/preview/simulate_release.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/samplers/prior.hpp"

namespace gpdp::preview {

std::string to_string(Family family) {
  switch (family) {
    case Family::Default:
      return "default";
    case Family::Smoothed:
      return "smoothed";
    case Family::Vote:
      return "vote";
    case Family::Eta:
      return "eta";
    case Family::Functional:
      return "functional";
    case Family::SmallSigma:
      return "small-sigma";
    case Family::PriorMean:
      return "prior-mean";
    case Family::GridMean:
      return "grid-mean";
    case Family::Sign:
      return "sign";
  }
  return "unknown";
}

const CandidateResult* EpsilonResult::family_best(Family family) const {
  const CandidateResult* best = nullptr;
  for (const auto& c : candidates) {
    if (c.config.family == family && (!best || c.tuning_iou > best->tuning_iou)) best = &c;
  }
  return best;
}

namespace {

void validate(const PreviewRequest& q) {
  require(q.evaluation.points.rows() >= 1, "preview: no evaluation points");
  require(q.evaluation.points.cols() == q.domain.dim(),
          "preview: the evaluation points and the domain differ in dimension");
  require(q.n >= 1, fmt::format("the private data set's size n must be ≥ 1, got {}", q.n));
  require(!q.epsilons.empty(), "give at least one ε target");
  for (const double e : q.epsilons)
    require(std::isfinite(e) && e > 0, fmt::format("ε targets must be positive, got {}", e));
  require(q.delta > 0 && q.delta < 1, fmt::format("δ must lie in (0, 1), got {}", q.delta));
  require(std::isfinite(q.M_Y) && q.M_Y > 0, fmt::format("M_Y must be positive, got {}", q.M_Y));
  require(q.simulations >= 2,
          fmt::format("simulations (per half) must be ≥ 2, got {}", q.simulations));
  require(!q.draws.empty(), "give at least one number of paths L");
  for (const int L : q.draws)
    require(L >= 1, fmt::format("numbers of paths must be ≥ 1, got {}", L));
  require(q.draws.front() == 1, "the first number of paths must be L = 1 (the default release)");
  for (const double f : q.eta_ridge_factors)
    require(f > 0 && f < 1, fmt::format("η ridge factors must lie in (0, 1), got {}", f));
  for (const double f : q.functional_ridge_factors)
    require(f > 0 && std::isfinite(f),
            fmt::format("functional ridge factors must be > 0, got {}", f));
  for (const double f : q.sigma_factors)
    require(f > 0 && std::isfinite(f), fmt::format("σ factors must be > 0, got {}", f));
  require(
      q.prior_mean_fraction >= 0 && q.prior_mean_fraction < 1,
      fmt::format("the prior mean's fraction must lie in [0, 1), got {}", q.prior_mean_fraction));
  if (!q.proxy) {
    require(q.ell && q.sigma && q.r_reference,
            "without public proxy data, give the public θ: ℓ, σ and the reference ridge r "
            "(the simulated fields are drawn from the prior at θ)");
  } else {
    require(q.proxy->X.rows() >= 4 && q.proxy->X.rows() == q.proxy->y.size(),
            "the public proxy data need at least 4 records");
    require(q.proxy->X.cols() == q.domain.dim(),
            "the proxy's covariates and the domain differ in dimension");
  }
}

struct Theta {
  double ell, sigma, r;
  std::string source;
};

// The proxy's records split in two halves by a seeded permutation: tuning and held out.
std::pair<std::vector<Eigen::Index>, std::vector<Eigen::Index>> split_records(Eigen::Index count,
                                                                              std::uint64_t seed) {
  SeededRng rng(seed);
  std::vector<Eigen::Index> perm(static_cast<std::size_t>(count));
  std::iota(perm.begin(), perm.end(), Eigen::Index{0});
  for (std::size_t i = perm.size(); i > 1; --i) {
    const auto j = uniform_index(rng, static_cast<Eigen::Index>(i));
    std::swap(perm[i - 1], perm[static_cast<std::size_t>(j)]);
  }
  const auto half = static_cast<std::ptrdiff_t>((perm.size() + 1) / 2);
  return {{perm.begin(), perm.begin() + half}, {perm.begin() + half, perm.end()}};
}

SimulatedSet records_of(const std::vector<Eigen::Index>& which,
                        const std::vector<Eigen::Index>& snapped, const Eigen::VectorXd& y) {
  SimulatedSet out;
  out.y.resize(static_cast<Eigen::Index>(which.size()));
  for (std::size_t i = 0; i < which.size(); ++i) {
    out.rows.push_back(snapped[static_cast<std::size_t>(which[i])]);
    out.y(static_cast<Eigen::Index>(i)) = y(which[i]);
  }
  return out;
}

Points rows_of(const Points& X, const std::vector<Eigen::Index>& which) {
  Points out(static_cast<Eigen::Index>(which.size()), X.cols());
  for (std::size_t i = 0; i < which.size(); ++i)
    out.row(static_cast<Eigen::Index>(i)) = X.row(which[i]);
  return out;
}

// ℓ, σ and the reference ridge: as given, else chosen on the proxy by the public search (fit on
// the tuning half, validation on the held-out half, unit coordinates by the domain's longer side).
Theta choose_theta(const PreviewRequest& q, const Points& Xa, const Eigen::VectorXd& ya,
                   const Points& Xb, const Eigen::VectorXd& yb) {
  if (q.ell && q.sigma && q.r_reference) return {*q.ell, *q.sigma, *q.r_reference, "given"};
  if (q.kernel != "exp")
    throw ParameterError({"ell", "sigma", "r"},
                         "the proxy search chooses θ for the exponential kernel only: give ell, "
                         "sigma, r for another kernel");
  const double side = (q.domain.upper() - q.domain.lower()).maxCoeff();
  auto unit = [&](const Points& X) {
    return Points((X.rowwise() - q.domain.lower().transpose()) / side);
  };
  experiments::PublicSearchSpec spec;
  spec.threshold = q.level;
  spec.target_epsilon = std::numeric_limits<double>::max();  // θ* only: no privacy constraint
  spec.privacy.n = q.n;
  spec.privacy.dim = q.domain.dim();
  spec.privacy.delta = q.delta;
  spec.privacy.M_Y = q.M_Y;
  spec.privacy.conversion = q.conversion;
  spec.grid = experiments::default_search_grid(q.domain.dim());
  spec.progress = q.progress;
  tasks::ThreadExecutor executor(q.threads);
  const auto found = experiments::search_public_data(
      unit(Xa), ya, unit(Xb), experiments::indicator_at_least(yb, q.level), spec, executor);
  const auto& t = found.unconstrained.theta;
  Theta out{q.ell.value_or(t.ell * side), q.sigma.value_or(t.sigma), q.r_reference.value_or(t.r),
            ""};
  out.source = fmt::format(
      "public search on the proxy (fit on one half, validation BCE on the other): θ* = (ℓ = {:.4g} "
      "in unit coordinates = {:.4g}, r = {:.4g}, σ = {:.4g}); {} candidates",
      t.ell, t.ell * side, t.r, t.sigma, found.candidates);
  return out;
}

// The unit of the smoothing bandwidths, in the grid's (declared) coordinates: ℓ, capped at a
// quarter of the grid's shorter side (a filter wider than that only flattens the map). When the
// grid was projected, ℓ (model units) is carried over by the ratio of the two domains' sides.
double bandwidth_unit(const PreviewRequest& q, double ell) {
  if (!q.evaluation.grid) return ell;
  double extent = std::numeric_limits<double>::infinity();
  for (const auto& a : q.evaluation.grid->axes()) extent = std::min(extent, a.hi - a.lo);
  if (!q.evaluation.grid_is_model_lattice && q.declared_domain) {
    ell *= (q.declared_domain->upper() - q.declared_domain->lower()).maxCoeff() /
           (q.domain.upper() - q.domain.lower()).maxCoeff();
  }
  return std::min(ell, extent / 4.0);
}

double standard_error(const std::vector<double>& v) {
  const double n = static_cast<double>(v.size());
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / n;
  double ss = 0;
  for (const double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / (n - 1) / n);
}

struct Outcomes {
  std::vector<SimulationOutcome> tune, held_out;
};

// Refuses simulations that cannot fit before any runs: each simulated release holds its distances
// and its ridge Cholesky (3 n x n and 2 m x n matrices: simulate_release.hpp) and its draws and
// fields (about 3 L + 4 vectors of m and 2 L + 1 of n), and min(threads, 2 S) run at once.
void check_simulation_memory(const PreviewRequest& q, int max_draws) {
  const auto n = static_cast<double>(q.n), m = static_cast<double>(q.evaluation.points.rows());
  const double draws = max_draws;
  const double per_simulation =
      static_cast<double>(dense_bytes(n, n, 3) + dense_bytes(m, n, 2)) +
      static_cast<double>(dense_bytes(m, 3 * draws + 4) + dense_bytes(n, 2 * draws + 1));
  const double concurrent =
      std::min<double>(resolve_threads(q.threads), 2.0 * static_cast<double>(q.simulations));
  require_memory(concurrent * per_simulation,
                 fmt::format("the preview's simulated releases (n = {} records, m = {} points, {} "
                             "at a time)",
                             q.n, q.evaluation.points.rows(), concurrent),
                 "per simulation: 3 n x n and 2 m x n matrices of doubles, and its draws",
                 "aggregate the records first (hexbin: a smaller n), a coarser grid, fewer "
                 "threads, or fewer points");
}

Outcomes run_simulations(const PreviewRequest& q, const SimulationContext& ctx, PriorSampler& prior,
                         const std::optional<std::pair<SimulatedSet, SimulatedSet>>& halves,
                         int max_draws, Eigen::Index normals) {
  const int S = q.simulations;
  std::vector<SimulationOutcome> all(static_cast<std::size_t>(2 * S));
  std::mutex prior_mutex;
  const SeededRng root(q.seed);
  parallel_for(2L * S, q.threads, [&](long j) {
    SeededRng rng = root.split(static_cast<std::uint64_t>(j));
    SimulationDraws d;
    const int fields = max_draws + 1 + (halves ? 0 : 1);  // + the simulated truth (prior case)
    {
      const std::lock_guard<std::mutex> lock(prior_mutex);
      d.prior = prior.draw(rng, fields);
    }
    SimulatedSet set;
    if (halves) {
      set = resample_records(j < S ? halves->first : halves->second, q.n, rng);
    } else {
      const Eigen::VectorXd truth = d.prior.col(fields - 1);
      d.prior.conservativeResize(Eigen::NoChange, fields - 1);
      set = prior_field_set(truth, q.n, ctx.sigma, ctx.r_reference, q.M_Y, rng);
    }
    d.noise.resize(q.n, max_draws);
    rng.fill_standard_normal(d.noise.data(), static_cast<std::size_t>(d.noise.size()));
    d.normals.resize(normals);
    rng.fill_standard_normal(d.normals.data(), static_cast<std::size_t>(normals));
    all[static_cast<std::size_t>(j)] = simulate_release(ctx, set, d);
    if (q.progress && (j + 1) % 8 == 0)
      q.progress(fmt::format("preview: simulation {} of {} done", j + 1, 2 * S));
  });
  Outcomes out;
  out.tune.assign(all.begin(), all.begin() + S);
  out.held_out.assign(all.begin() + S, all.end());
  return out;
}

}  // namespace

PreviewResult run_preview(const PreviewRequest& q) {
  const auto t0 = std::chrono::steady_clock::now();
  validate(q);
  PreviewResult result;
  std::optional<std::pair<SimulatedSet, SimulatedSet>> halves;
  Theta theta{0, 0, 0, ""};
  if (q.proxy) {
    const auto [tune, held] = split_records(q.proxy->X.rows(), q.seed);
    const auto snapped = nearest_evaluation_points(q.proxy->X, q.evaluation);
    halves = std::make_pair(records_of(tune, snapped, q.proxy->y),
                            records_of(held, snapped, q.proxy->y));
    // The search sees the proxy's own covariates, split the same way.
    theta = choose_theta(q, rows_of(q.proxy->X, tune), halves->first.y, rows_of(q.proxy->X, held),
                         halves->second.y);
  } else {
    theta = choose_theta(q, {}, {}, {}, {});
  }
  result.ell = theta.ell;
  result.sigma = theta.sigma;
  result.r_reference = theta.r;
  result.theta_source = theta.source;
  if (q.progress) {
    q.progress(fmt::format("preview: θ = (ℓ = {:.4g}, σ = {:.4g}), reference r = {:.4g} ({})",
                           theta.ell, theta.sigma, theta.r, theta.source));
  }
  const Kernel kernel = Kernel::from_name(q.kernel, theta.ell);

  privacy::GpMechanism base;
  base.kernel = kernel;
  base.dim = q.domain.dim();
  base.domain = q.domain;
  base.n = q.n;
  base.sigma = theta.sigma;
  base.M_Y = q.M_Y;
  base.lemma = q.lemma;
  CandidateGrid grid{
      q.draws,     q.eta_ridge_factors,     {}, q.sigma_factors, q.prior_mean_fraction,
      q.grid_mean, q.sign && q.level == 0.0};
  if (q.functional) {
    for (const double f : q.functional_ridge_factors)
      grid.functional_ridges.push_back(f * std::sqrt(static_cast<double>(q.n)));
  }
  std::vector<std::vector<Calibrated>> candidates;
  result.results.resize(q.epsilons.size());
  for (std::size_t e = 0; e < q.epsilons.size(); ++e) {
    result.results[e].epsilon = q.epsilons[e];
    candidates.push_back(calibrated_candidates(base, {q.epsilons[e], q.delta, q.conversion}, grid,
                                               result.results[e].infeasible));
    require(!candidates.back().empty(),
            fmt::format("no candidate meets ε = {} (δ = {})", q.epsilons[e], q.delta));
  }
  std::vector<double> nonzero;
  for (const double f : q.bandwidth_factors) nonzero.push_back(f * bandwidth_unit(q, theta.ell));
  const std::vector<double> bandwidths = bandwidths_for(q.evaluation, nonzero);
  const std::vector<Variant> variants = enumerate_variants(candidates, bandwidths);
  if (q.progress) {
    q.progress(fmt::format("preview: {} variants over {} ε targets, {} + {} simulations",
                           variants.size(), q.epsilons.size(), q.simulations, q.simulations));
  }

  const int max_draws = *std::max_element(q.draws.begin(), q.draws.end());
  check_simulation_memory(q, max_draws);
  PriorSampler prior(kernel, q.evaluation.points,
                     q.evaluation.grid_is_model_lattice ? q.evaluation.grid : std::nullopt,
                     q.evaluation.cells);
  result.prior_sampler = prior.method();
  const SimulationContext ctx{q.evaluation, kernel,     q.level,    theta.sigma,
                              theta.r,      candidates, bandwidths, variants};
  // The shared normals: the prior mean's one, then the largest grid mean's 2 C.
  long cells = 0;
  for (const auto& per_epsilon : candidates)
    for (const auto& c : per_epsilon)
      if (c.mechanism.kind == privacy::MechanismKind::GridMean)
        cells = std::max(cells, release::grid_mean_layout(c.mechanism).size());
  const Outcomes sims = run_simulations(q, ctx, prior, halves, max_draws, 1 + 2 * cells);

  auto collect = [](const std::vector<SimulationOutcome>& v, auto get) {
    std::vector<double> out;
    for (const auto& o : v) out.push_back(get(o));
    return out;
  };
  result.random_set_iou = interval(
      collect(sims.held_out, [](const SimulationOutcome& o) { return o.reference_share; }));
  result.nonprivate_iou =
      interval(collect(sims.held_out, [](const SimulationOutcome& o) { return o.nonprivate_iou; }));
  result.simulated_share_above = result.random_set_iou.mean;
  if (q.proxy) result.proxy_share_above = (q.proxy->y.array() >= q.level).cast<double>().mean();
  std::vector<std::vector<Eigen::Index>> variant_index(result.results.size());
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const auto i = static_cast<Eigen::Index>(v);
    variant_index[variants[v].epsilon].push_back(i);
    const Variant& var = variants[v];
    const Calibrated& c = candidates[var.epsilon][var.candidate];
    CandidateResult r;
    r.config = {var.family,         c.mechanism, c.solved,  c.draws,
                var.cutoff,         var.smooth,  c.epsilon, c.prior_mean_fraction,
                c.prior_mean_noise, c.sign};
    r.tuning_iou =
        interval(collect(sims.tune, [&](const SimulationOutcome& o) { return o.iou(i); })).mean;
    r.iou = interval(collect(sims.held_out, [&](const SimulationOutcome& o) { return o.iou(i); }));
    if (c.draws > 1)
      r.bce =
          interval(collect(sims.held_out, [&](const SimulationOutcome& o) { return o.bce(i); }));
    auto& eps = result.results[var.epsilon];
    eps.candidates.push_back(r);
    if (r.tuning_iou > eps.candidates[eps.best].tuning_iou) eps.best = eps.candidates.size() - 1;
  }
  for (std::size_t e = 0; e < result.results.size(); ++e) {
    auto& eps = result.results[e];
    const Eigen::Index i = variant_index[e][eps.best];
    const std::vector<double> diff = collect(
        sims.held_out, [&](const SimulationOutcome& o) { return o.iou(i) - o.reference_share; });
    eps.gain_over_chance = interval(diff);
    eps.beats_chance = eps.gain_over_chance.mean > 2.0 * standard_error(diff);
  }
  result.simulations = q.simulations;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace gpdp::preview
