#include "gpdp/privacy/order_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpdp/error.hpp"

namespace gpdp::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Maps t ∈ [t_lo, t_hi] onto the open range (1, α_max) so that both ends are resolved:
//   α_max finite:  α = 1 + (α_max−1)·s(t), s = logistic(t); near α_max it is computed as
//                  α_max − (α_max−1)(1−s) so the distance to the end keeps full precision.
//   α_max = +∞:    α = 1 + e^t.
// The scanned range stops where α − 1 ≈ 1e-15 (below that, α rounds to 1 in double) and a few ulps
// below α_max.
class OrderMap {
 public:
  explicit OrderMap(double alpha_max) : alpha_max_(alpha_max), span_(alpha_max - 1.0) {
    if (std::isinf(alpha_max)) {
      t_lo_ = std::log(1e-15);
      t_hi_ = std::log(1e15);
      return;
    }
    const double s_lo = std::clamp(1e-15 / span_, 1e-300, 1e-3);
    const double s_hi =
        std::clamp(16.0 * std::numeric_limits<double>::epsilon() * alpha_max / span_, 1e-300, 1e-3);
    t_lo_ = std::log(s_lo) - std::log1p(-s_lo);
    t_hi_ = std::log1p(-s_hi) - std::log(s_hi);
  }
  double t_lo() const { return t_lo_; }
  double t_hi() const { return t_hi_; }
  double alpha(double t) const {
    if (std::isinf(alpha_max_)) return 1.0 + std::exp(t);
    if (t < 0) {
      const double e = std::exp(t);
      return 1.0 + span_ * (e / (1.0 + e));
    }
    const double e = std::exp(-t);
    return alpha_max_ - span_ * (e / (1.0 + e));
  }

 private:
  double alpha_max_, span_;
  double t_lo_ = 0.0, t_hi_ = 0.0;
};

}  // namespace

OrderMinimum minimise_over_orders(double alpha_max,
                                  const std::function<double(double)>& objective) {
  const OrderMap map(alpha_max);
  constexpr int kScan = 257;
  std::vector<double> ts(kScan), fs(kScan);
  for (int i = 0; i < kScan; ++i) {
    ts[i] = map.t_lo() + (map.t_hi() - map.t_lo()) * i / (kScan - 1);
    fs[i] = objective(map.alpha(ts[i]));
  }
  std::vector<int> local;
  for (int i = 0; i < kScan; ++i) {
    if (!std::isfinite(fs[i])) continue;
    const double left = i > 0 ? fs[i - 1] : kInf;
    const double right = i + 1 < kScan ? fs[i + 1] : kInf;
    if (fs[i] <= left && fs[i] <= right) local.push_back(i);
  }
  if (local.empty()) {
    throw PrivacyError(
        fmt::format("no admissible Rényi order in (1, {}) gives a finite bound", alpha_max));
  }
  std::sort(local.begin(), local.end(), [&](int a, int b) { return fs[a] < fs[b]; });
  if (local.size() > 4) local.resize(4);

  OrderMinimum best;
  const int best_index = local.front();
  best.alpha = map.alpha(ts[best_index]);
  best.value = fs[best_index];
  best.pinned_low = best_index == 0;
  best.pinned_high = best_index == kScan - 1;
  auto finite_objective = [&](double t) {
    const double v = objective(map.alpha(t));
    return std::isfinite(v) ? v : std::numeric_limits<double>::max();
  };
  for (const int i : local) {
    const double a = ts[std::max(i - 1, 0)];
    const double b = ts[std::min(i + 1, kScan - 1)];
    std::uintmax_t iterations = 200;
    const auto [t, v] = boost::math::tools::brent_find_minima(
        finite_objective, a, b, std::numeric_limits<double>::digits, iterations);
    if (v < best.value) {
      best.value = v;
      best.alpha = map.alpha(t);
      best.pinned_low = i == 0 && t <= ts[1];
      best.pinned_high = i == kScan - 1 && t >= ts[kScan - 2];
    }
  }
  return best;
}

}  // namespace gpdp::privacy
