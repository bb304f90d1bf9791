#include "gpdp/attack/shadow.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::attack {

void ShadowSetting::validate() const {
  require(n >= 1, fmt::format("attack: dataset size n must be ≥ 1, got {}", n));
  require(noise >= 0.0 && noise < 1.0,
          fmt::format("attack: response noise M_ξ must be in [0, 1), got {}", noise));
  require(std::isfinite(x0) && std::isfinite(y0) && std::abs(y0) <= 1.0,
          fmt::format("attack: target z₀ = ({}, {}) must be finite with |y₀| ≤ 1", x0, y0));
}

double step_function(double x) { return x < 0.5 ? -1.0 : 1.0; }

ShadowDataset draw_shadow_dataset(const ShadowSetting& setting, Hypothesis hypothesis, Rng& rng) {
  ShadowDataset d{Points(setting.n, 1), Eigen::VectorXd(setting.n)};
  long first = 0;
  if (hypothesis == Hypothesis::In) {
    d.X(0, 0) = setting.x0;
    d.y[0] = setting.y0;
    first = 1;
  }
  for (long i = first; i < setting.n; ++i) {
    const double x = rng.uniform01();
    double y = (1.0 - setting.noise) * step_function(x);
    if (setting.noise > 0.0) y += setting.noise * (2.0 * rng.uniform01() - 1.0);
    d.X(i, 0) = x;
    d.y[i] = y;
  }
  return d;
}

TargetPosterior target_posterior(const ShadowSetting& setting, const ShadowDataset& data,
                                 double r) {
  const Posterior post(setting.kernel, data.X, data.y, {r, 1.0});
  Points x0(1, 1);
  x0(0, 0) = setting.x0;
  return {post.mean(x0)[0], post.variance(x0)[0]};  // σ = 1: variance() is k_D(x₀, x₀)
}

std::vector<TargetPosterior> shadow_posteriors(const ShadowSetting& setting, Hypothesis hypothesis,
                                               double r, long count, Rng& rng) {
  setting.validate();
  std::vector<TargetPosterior> out;
  out.reserve(static_cast<std::size_t>(count));
  for (long i = 0; i < count; ++i) {
    out.push_back(target_posterior(setting, draw_shadow_dataset(setting, hypothesis, rng), r));
  }
  return out;
}

}  // namespace gpdp::attack
