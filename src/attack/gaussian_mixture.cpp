#include "gpdp/attack/gaussian_mixture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::attack {

namespace {
constexpr double kLogSqrt2Pi = 0.91893853320467274178;

double log_normal(double x, double mean, double sd) {
  const double z = (x - mean) / sd;
  return -0.5 * z * z - std::log(sd) - kLogSqrt2Pi;
}

double quantile(const std::vector<double>& sorted, double p) {
  const double pos = p * static_cast<double>(sorted.size() - 1);
  const auto i = static_cast<std::size_t>(pos);
  const double frac = pos - static_cast<double>(i);
  return i + 1 < sorted.size() ? sorted[i] * (1 - frac) + sorted[i + 1] * frac : sorted[i];
}

// Plain EM for two components from the given start; returns the mean log-likelihood reached.
// Weighted EM (counts c_i at values x_i) for two components from the given start.
double run_em(const std::vector<double>& xs, const std::vector<double>& counts, GaussianMixture2& g,
              double sd_floor, const EmOptions& options) {
  double n = 0.0;
  for (double c : counts) n += c;
  std::vector<double> resp(xs.size());
  double previous = -std::numeric_limits<double>::infinity();
  for (int it = 0; it < options.max_iterations; ++it) {
    double loglik = 0.0;
    const double ca = std::log(g.weight[0]) - std::log(g.sd[0]);
    const double cb = std::log(g.weight[1]) - std::log(g.sd[1]);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double za = (xs[i] - g.mean[0]) / g.sd[0], zb = (xs[i] - g.mean[1]) / g.sd[1];
      const double a = ca - 0.5 * za * za, b = cb - 0.5 * zb * zb;
      const double mx = std::max(a, b);
      const double e = std::exp(-std::abs(a - b));  // the smaller term relative to the larger
      const double lse = mx + std::log1p(e);
      resp[i] = a >= b ? 1.0 / (1.0 + e) : e / (1.0 + e);
      loglik += counts[i] * (lse - kLogSqrt2Pi);
    }
    loglik /= n;
    std::array<double, 2> w{0, 0}, s1{0, 0}, s2{0, 0};
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double r[2] = {counts[i] * resp[i], counts[i] * (1.0 - resp[i])};
      for (int j = 0; j < 2; ++j) {
        w[j] += r[j];
        s1[j] += r[j] * xs[i];
      }
    }
    for (int j = 0; j < 2; ++j) g.mean[j] = w[j] > 0 ? s1[j] / w[j] : g.mean[j];
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double r[2] = {counts[i] * resp[i], counts[i] * (1.0 - resp[i])};
      for (int j = 0; j < 2; ++j) s2[j] += r[j] * (xs[i] - g.mean[j]) * (xs[i] - g.mean[j]);
    }
    for (int j = 0; j < 2; ++j) {
      g.weight[j] = std::clamp(w[j] / n, 1e-12, 1.0);
      g.sd[j] = std::max(w[j] > 0 ? std::sqrt(s2[j] / w[j]) : sd_floor, sd_floor);
    }
    const double total = g.weight[0] + g.weight[1];
    g.weight[0] /= total;
    g.weight[1] /= total;
    if (loglik - previous < options.tolerance) break;
    previous = loglik;
  }
  double total = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) total += counts[i] * g.log_density(xs[i]);
  return total / n;
}

// The sample rounded to `bins` equal bins over its range (centres and counts of non-empty bins).
void bin_sample(const std::vector<double>& sorted, int bins, std::vector<double>& centres,
                std::vector<double>& counts) {
  const double lo = sorted.front(), hi = sorted.back();
  if (!(hi > lo)) {
    centres = {lo};
    counts = {static_cast<double>(sorted.size())};
    return;
  }
  const double width = (hi - lo) / bins;
  std::vector<double> c(static_cast<std::size_t>(bins), 0.0);
  for (double x : sorted) {
    c[static_cast<std::size_t>(std::min(static_cast<long>((x - lo) / width), bins - 1L))] += 1.0;
  }
  for (int b = 0; b < bins; ++b) {
    if (c[static_cast<std::size_t>(b)] > 0) {
      centres.push_back(lo + (b + 0.5) * width);
      counts.push_back(c[static_cast<std::size_t>(b)]);
    }
  }
}
}  // namespace

double GaussianMixture2::log_density(double x) const {
  const double a = std::log(weight[0]) + log_normal(x, mean[0], sd[0]);
  const double b = std::log(weight[1]) + log_normal(x, mean[1], sd[1]);
  const double mx = std::max(a, b);
  if (!std::isfinite(mx)) return mx;
  return mx + std::log(std::exp(a - mx) + std::exp(b - mx));
}

double GaussianMixture2::mean_log_likelihood(const std::vector<double>& xs) const {
  double total = 0.0;
  for (double x : xs) total += log_density(x);
  return total / static_cast<double>(xs.size());
}

GaussianMixture2 fit_gaussian_mixture(const std::vector<double>& xs, const EmOptions& options) {
  require(xs.size() >= 4,
          fmt::format("fit_gaussian_mixture: needs at least 4 values, got {}", xs.size()));
  for (double x : xs) {
    if (!std::isfinite(x)) throw InputError("fit_gaussian_mixture: sample contains NaN or Inf");
  }
  std::vector<double> sorted = xs;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0.0, sq = 0.0;
  for (double x : xs) mean += x;
  mean /= static_cast<double>(xs.size());
  for (double x : xs) sq += (x - mean) * (x - mean);
  const double sd = std::sqrt(sq / static_cast<double>(xs.size()));
  const double sd_floor = std::max(options.sd_floor_fraction * sd, 1e-12);

  // Starts: the lower/upper halves split at three quantiles, and a narrow/wide pair at the median.
  std::vector<GaussianMixture2> starts;
  for (double split : {0.25, 0.5, 0.75}) {
    GaussianMixture2 g;
    g.weight = {split, 1 - split};
    g.mean = {quantile(sorted, split / 2), quantile(sorted, (1 + split) / 2)};
    g.sd = {std::max(sd / 2, sd_floor), std::max(sd / 2, sd_floor)};
    starts.push_back(g);
  }
  GaussianMixture2 nested;
  nested.mean = {quantile(sorted, 0.5), quantile(sorted, 0.5)};
  nested.sd = {std::max(sd / 4, sd_floor), std::max(sd * 1.5, sd_floor)};
  starts.push_back(nested);

  std::vector<double> values, counts;
  if (options.bins > 0 && static_cast<long>(xs.size()) > 4L * options.bins) {
    bin_sample(sorted, options.bins, values, counts);
  } else {
    values = xs;
    counts.assign(xs.size(), 1.0);
  }
  GaussianMixture2 best = starts.front();
  double best_ll = -std::numeric_limits<double>::infinity();
  for (auto g : starts) {
    const double ll = run_em(values, counts, g, sd_floor, options);
    if (ll > best_ll) {
      best_ll = ll;
      best = g;
    }
  }
  return best;
}

}  // namespace gpdp::attack
