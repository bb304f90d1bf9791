#include "gpdp/attack/latent_tanh_mixture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlopt.hpp>

#include "gpdp/attack/gauss_hermite.hpp"
#include "gpdp/error.hpp"

namespace gpdp::attack {

namespace {
constexpr double kInvSqrtPi = 0.56418958354775628695;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;
constexpr double kSqrt2 = 1.41421356237309504880;
constexpr double kTiny = 1e-280;

// Half the spread of u = tanh(φ/2) over φ ∈ [m − τ, m + τ].
double latent_spread(double m, double tau) {
  return 0.5 * std::abs(std::tanh(0.5 * (m + tau)) - std::tanh(0.5 * (m - tau)));
}

// Every component's integral over φ is a weighted sum Σ_k w_k N(t; u_k, s²), u_k = tanh(φ_k/2):
//  * wide noise (s ≥ latent spread): Gauss–Hermite nodes φ_k = m + √2 τ x_k, w_k = W_k/√π;
//  * narrow noise: Gauss–Hermite would need O((spread/s)²) nodes. The integrand is smooth in φ on
//    the scale 2s (|du/dφ| ≤ ½), so the trapezoid rule on φ nodes spaced 1.5 s is exponentially
//    accurate (error ~ exp(−2π²(2s/1.5s)²) ≈ e^{−35}); nodes cover m ± 8τ.
// u_k increases with k, so the nodes with |t − u_k| ≤ 8s (the only ones that matter to double
// precision) form one contiguous run found by binary search.
void component_nodes(double m, double tau, double s, int gh_points, std::vector<double>& u,
                     std::vector<double>& w) {
  u.clear();
  w.clear();
  if (s >= latent_spread(m, tau)) {
    const GaussHermiteRule& gh = gauss_hermite(gh_points);
    for (std::size_t k = 0; k < gh.nodes.size(); ++k) {
      if (gh.weights[k] < 1e-14) continue;  // contributes below double precision
      u.push_back(std::tanh(0.5 * (m + kSqrt2 * tau * gh.nodes[k])));
      w.push_back(gh.weights[k] * kInvSqrtPi);
    }
    return;
  }
  const long half = std::min(static_cast<long>(std::ceil(8.0 * tau / (1.5 * s))), 4000L);
  const double h = 8.0 * tau / static_cast<double>(half);
  for (long k = -half; k <= half; ++k) {
    const double z = static_cast<double>(k) * h / tau;
    u.push_back(std::tanh(0.5 * (m + static_cast<double>(k) * h)));
    w.push_back(h * kInvSqrt2Pi / tau * std::exp(-0.5 * z * z));
  }
}

double component_density(double t, double s, const std::vector<double>& u,
                         const std::vector<double>& w) {
  const auto first = std::lower_bound(u.begin(), u.end(), t - 8.0 * s);
  const auto last = std::upper_bound(first, u.end(), t + 8.0 * s);
  const double inv_s = 1.0 / s;
  double sum = 0.0;
  for (auto it = first; it != last; ++it) {
    const double z = (t - *it) * inv_s;
    sum += w[static_cast<std::size_t>(it - u.begin())] * std::exp(-0.5 * z * z);
  }
  return sum * kInvSqrt2Pi * inv_s;
}

// The φ-rule in log space (for tails where the density underflows).
double log_density_tail(const LatentTanhMixture& g, double t, const GaussHermiteRule& gh) {
  double mx = -std::numeric_limits<double>::infinity();
  std::vector<double> terms;
  terms.reserve(2 * gh.nodes.size());
  for (int j = 0; j < 2; ++j) {
    for (std::size_t k = 0; k < gh.nodes.size(); ++k) {
      const double u = std::tanh(0.5 * (g.m[j] + kSqrt2 * g.tau[j] * gh.nodes[k]));
      const double z = (t - u) / g.s;
      const double term = std::log(g.weight[j] * gh.weights[k]) - 0.5 * z * z;
      terms.push_back(term);
      mx = std::max(mx, term);
    }
  }
  double acc = 0.0;
  for (double term : terms) acc += std::exp(term - mx);
  return mx + std::log(acc * kInvSqrtPi * kInvSqrt2Pi / g.s);
}

struct Binned {
  std::vector<double> centres;
  std::vector<double> counts;
  double width;
};

Binned bin_sample(const std::vector<double>& sample, int bins) {
  const auto [lo_it, hi_it] = std::minmax_element(sample.begin(), sample.end());
  const double lo = *lo_it, hi = *hi_it;
  Binned b;
  b.width = hi > lo ? (hi - lo) / bins : 1e-6;
  std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
  for (double x : sample) {
    const auto i = std::min(static_cast<long>((x - lo) / b.width), static_cast<long>(bins) - 1);
    counts[static_cast<std::size_t>(std::max(i, 0L))] += 1.0;
  }
  for (int i = 0; i < bins; ++i) {
    if (counts[static_cast<std::size_t>(i)] > 0) {
      b.centres.push_back(lo + (i + 0.5) * b.width);
      b.counts.push_back(counts[static_cast<std::size_t>(i)]);
    }
  }
  return b;
}

double quantile(const std::vector<double>& sorted, double p) {
  const double pos = p * static_cast<double>(sorted.size() - 1);
  return sorted[static_cast<std::size_t>(std::lround(pos))];
}

LatentTanhMixture from_vector(const std::vector<double>& x, int nodes) {
  LatentTanhMixture g;
  const double w = 1.0 / (1.0 + std::exp(-x[0]));
  g.weight = {w, 1.0 - w};
  g.m = {x[1], x[2]};
  g.tau = {std::exp(x[3]), std::exp(x[4])};
  g.s = std::exp(x[5]);
  g.nodes = nodes;
  return g;
}

struct Objective {
  const Binned* data;
  int nodes;
};

double objective(const std::vector<double>& x, std::vector<double>& /*grad*/, void* ctx) {
  const auto* o = static_cast<const Objective*>(ctx);
  const double ll =
      latent_mean_log_likelihood(from_vector(x, o->nodes), o->data->centres, o->data->counts);
  return std::isfinite(ll) ? -ll : 1e300;
}
}  // namespace

double LatentTanhMixture::density(double t) const { return LatentDensity(*this).density(t); }
double LatentTanhMixture::log_density(double t) const {
  return LatentDensity(*this).log_density(t);
}

LatentDensity::LatentDensity(const LatentTanhMixture& model) : model_(model) {
  for (std::size_t j = 0; j < 2; ++j) {
    component_nodes(model_.m[j], model_.tau[j], model_.s, model_.nodes, node_u_[j], node_w_[j]);
  }
}

double LatentDensity::density(double t) const {
  return model_.weight[0] * component_density(t, model_.s, node_u_[0], node_w_[0]) +
         model_.weight[1] * component_density(t, model_.s, node_u_[1], node_w_[1]);
}

double LatentDensity::log_density(double t) const {
  const double d = density(t);
  if (d > kTiny) return std::log(d);
  return log_density_tail(model_, t, gauss_hermite(model_.nodes));
}

double latent_mean_log_likelihood(const LatentTanhMixture& model, const std::vector<double>& values,
                                  const std::vector<double>& counts) {
  const LatentDensity prepared(model);
  double total = 0.0, weight = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    total += counts[i] * prepared.log_density(values[i]);
    weight += counts[i];
  }
  return total / weight;
}

LatentTanhMixture fit_latent_tanh_mixture(const std::vector<double>& sample,
                                          const LatentFitOptions& options) {
  require(sample.size() >= 10,
          fmt::format("fit_latent_tanh_mixture: needs at least 10 values, got {}", sample.size()));
  require(options.bins >= 16 && options.nodes >= 8 && options.max_evaluations >= 50,
          "fit_latent_tanh_mixture: bins ≥ 16, nodes ≥ 8 and max_evaluations ≥ 50 are required");
  for (double x : sample) {
    if (!std::isfinite(x)) throw InputError("fit_latent_tanh_mixture: sample contains NaN or Inf");
  }
  const Binned data = bin_sample(sample, options.bins);
  std::vector<double> sorted = sample;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0.0, sq = 0.0;
  for (double x : sample) mean += x;
  mean /= static_cast<double>(sample.size());
  for (double x : sample) sq += (x - mean) * (x - mean);
  const double sd = std::max(std::sqrt(sq / static_cast<double>(sample.size())), 1e-6);

  const double s_min = std::max(options.s_min > 0 ? options.s_min : data.width, 1e-6);
  const double s_max = std::max(2.0 * sd + 1.0, 2.0 * s_min);
  const std::vector<double> lower{-7.0,           -14.0,          -14.0,
                                  std::log(0.02), std::log(0.02), std::log(s_min)};
  const std::vector<double> upper{7.0, 14.0, 14.0, std::log(8.0), std::log(8.0), std::log(s_max)};
  auto latent = [](double t) { return 2.0 * std::atanh(std::clamp(t, -0.98, 0.98)); };
  auto clamp_start = [&](std::vector<double> x) {
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::clamp(x[i], lower[i], upper[i]);
    return x;
  };
  const double med = latent(quantile(sorted, 0.5));
  // Starts: two separated latent components with moderate noise; a narrow/wide pair at the median;
  // well separated components with little noise; and "all noise".
  const std::vector<std::vector<double>> starts{
      {0.0, latent(quantile(sorted, 0.25)), latent(quantile(sorted, 0.75)), std::log(0.5),
       std::log(0.5), std::log(0.5 * sd)},
      {0.0, med, med, std::log(0.3), std::log(2.0), std::log(0.2 * sd)},
      {0.0, latent(quantile(sorted, 0.1)), latent(quantile(sorted, 0.9)), std::log(0.3),
       std::log(0.3), std::log(0.05 * sd)},
      {0.0, med, med + 0.5, std::log(0.1), std::log(0.1), std::log(0.9 * sd)},
  };

  Objective ctx{&data, options.nodes};
  // Every start gets a short run; the best is then polished with the full budget.
  auto run = [&](std::vector<double> x, int evaluations, double& value) {
    nlopt::opt opt(nlopt::LN_BOBYQA, 6);
    opt.set_lower_bounds(lower);
    opt.set_upper_bounds(upper);
    opt.set_min_objective(objective, &ctx);
    opt.set_xtol_rel(1e-6);
    opt.set_ftol_abs(1e-9);
    opt.set_maxeval(evaluations);
    value = std::numeric_limits<double>::infinity();
    try {
      opt.optimize(x, value);
    } catch (const nlopt::roundoff_limited&) {
      value = opt.last_optimum_value();
    } catch (const std::runtime_error&) {
      value = std::numeric_limits<double>::infinity();  // a start NLopt rejects is dropped
    }
    return x;
  };
  std::vector<double> best;
  double best_value = std::numeric_limits<double>::infinity();
  for (const auto& start : starts) {
    double value = 0.0;
    auto x = run(clamp_start(start), std::min(150, options.max_evaluations), value);
    if (value < best_value) {
      best_value = value;
      best = x;
    }
  }
  if (!best.empty()) {
    double value = 0.0;
    auto x = run(best, options.max_evaluations, value);
    if (value <= best_value) best = x;
  }
  if (best.empty()) throw NumericalError("fit_latent_tanh_mixture: every optimiser start failed");
  return from_vector(best, options.nodes);
}

}  // namespace gpdp::attack
