#include "gpdp/privacy/accountant.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

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

struct Minimum {
  double alpha = 0.0;
  double value = kInf;
  bool pinned_low = false;
  bool pinned_high = false;
};

// Minimises objective(α) over the open range (1, α_max): scan + Brent around the best local minima.
template <class F>
Minimum minimise_over_orders(double alpha_max, F objective) {
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

  Minimum best;
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

// The parts of a Guarantee common to ε(δ) and δ(ε): the optimal order and where it lies.
Guarantee at_order(const Accountant& acc, const Minimum& m, Conversion c) {
  Guarantee g;
  g.alpha = m.alpha;
  g.rdp = acc.rdp(m.alpha);
  g.alpha_max = acc.alpha_max();
  g.conversion = c;
  g.pinned_low = m.pinned_low;
  g.pinned_high = m.pinned_high;
  return g;
}

}  // namespace

std::string to_string(Conversion c) { return c == Conversion::Mironov ? "mironov" : "cks"; }

Conversion parse_conversion(const std::string& name) {
  if (name == "mironov") return Conversion::Mironov;
  if (name == "cks" || name == "balle") return Conversion::CKS;
  throw InputError(fmt::format("unknown conversion '{}': expected mironov or cks", name));
}

std::string conversion_citation(Conversion c) {
  return c == Conversion::Mironov
             ? "Mironov 2017 Prop. 3: ε = Σε_α + log(1/δ)/(α−1)"
             : "Canonne-Kamath-Steinke 2020 / Balle et al. 2020: ε = Σε_α + log((α−1)/α) − "
               "(log δ + log α)/(α−1)";
}

double epsilon_at_order(double rdp, double alpha, double delta, Conversion c) {
  const double am1 = alpha - 1.0;
  if (c == Conversion::Mironov) return rdp - std::log(delta) / am1;
  return rdp + std::log1p(-1.0 / alpha) - (std::log(delta) + std::log(alpha)) / am1;
}

double log_delta_at_order(double rdp, double alpha, double epsilon, Conversion c) {
  const double am1 = alpha - 1.0;
  if (c == Conversion::Mironov) return am1 * (rdp - epsilon);
  return am1 * (rdp - epsilon) + am1 * std::log1p(-1.0 / alpha) - std::log(alpha);
}

std::string Guarantee::note() const {
  std::vector<std::string> parts;
  if (pinned_low)
    parts.push_back("optimal α pinned at the lower end of the admissible range (α → 1)");
  if (pinned_high) parts.push_back("optimal α pinned at the upper end of the admissible range");
  if (clamped) {
    parts.push_back(fmt::format(
        "converted ε was {:.6g} < 0: the guarantee holds at ε = 0 for this δ", unclamped_epsilon));
  }
  if (delta >= 1.0) parts.push_back("δ = 1: no nontrivial guarantee at this ε");
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : "; ") + p;
  return s;
}

Accountant& Accountant::add(RdpCurve curve, long count) {
  require(count >= 1, fmt::format("number of releases must be ≥ 1, got {}", count));
  entries_.push_back({std::move(curve), count});
  return *this;
}

long Accountant::total_releases() const {
  return std::accumulate(entries_.begin(), entries_.end(), 0L,
                         [](long s, const Entry& e) { return s + e.count; });
}

double Accountant::alpha_max() const {
  double a = kInf;
  for (const auto& e : entries_) a = std::min(a, e.curve.alpha_max());
  return a;
}

double Accountant::rdp(double alpha) const {
  double total = 0.0;
  for (const auto& e : entries_) {
    const double v = e.curve(alpha);
    if (std::isinf(v)) return kInf;
    total += static_cast<double>(e.count) * v;
  }
  return total;
}

Guarantee Accountant::epsilon(double delta, Conversion c) const {
  require(!entries_.empty(), "accountant: nothing to account (no release added)");
  require(delta > 0 && delta < 1, fmt::format("δ must lie in (0, 1), got {}", delta));
  const Minimum m = minimise_over_orders(alpha_max(), [&](double alpha) {
    const double R = rdp(alpha);
    return std::isinf(R) ? kInf : epsilon_at_order(R, alpha, delta, c);
  });
  Guarantee g = at_order(*this, m, c);
  g.delta = delta;
  g.unclamped_epsilon = m.value;
  g.clamped = m.value < 0;
  g.epsilon = std::max(0.0, m.value);
  return g;
}

Guarantee Accountant::delta(double epsilon, Conversion c) const {
  require(!entries_.empty(), "accountant: nothing to account (no release added)");
  require(std::isfinite(epsilon) && epsilon >= 0,
          fmt::format("ε must be finite and ≥ 0, got {}", epsilon));
  const Minimum m = minimise_over_orders(alpha_max(), [&](double alpha) {
    const double R = rdp(alpha);
    return std::isinf(R) ? kInf : log_delta_at_order(R, alpha, epsilon, c);
  });
  Guarantee g = at_order(*this, m, c);
  g.epsilon = epsilon;
  g.unclamped_epsilon = epsilon;
  g.delta = std::min(1.0, std::exp(m.value));
  return g;
}

std::string Accountant::description() const {
  std::string s;
  for (const auto& e : entries_) s += fmt::format("{} × {}\n", e.count, e.curve.description());
  return s;
}

}  // namespace gpdp::privacy
