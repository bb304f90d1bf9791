#include "gpdp/privacy/calibrate.hpp"

#include <fmt/format.h>

#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "gpdp/error.hpp"

namespace gpdp::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

GpMechanism with_value(GpMechanism m, CalibrationParameter p, double v) {
  switch (p) {
    case CalibrationParameter::R:
      m.r = v;
      break;
    case CalibrationParameter::Eta:
      m.eta = v;
      break;
    case CalibrationParameter::Sigma:
      m.sigma = v;
      break;
    case CalibrationParameter::Noise:
      // An explicit s_N of a grid mean keeps its ratio to s_S (0: the default s_S / M_Y).
      if (m.count_noise > 0 && m.noise_scale > 0) m.count_noise *= v / m.noise_scale;
      m.noise_scale = v;
      break;
    case CalibrationParameter::Draws:
      break;
  }
  return m;
}

// Smallest v in [lo, hi] (log-scan, then TOMS 748) with eps(v) ≤ target; returns the feasible end.
struct Crossing {
  double value;
  bool below_range;  // already feasible at lo
};
template <class F>
std::optional<Crossing> first_crossing(F eps, double lo, double hi, double target) {
  constexpr int kPerDecade = 6;
  const int steps = static_cast<int>(std::ceil(std::log10(hi / lo) * kPerDecade));
  double prev = lo;
  if (eps(lo) <= target) return Crossing{lo, true};
  for (int i = 1; i <= steps; ++i) {
    const double v = lo * std::pow(10.0, static_cast<double>(i) / kPerDecade);
    if (eps(v) <= target) {
      // f(u) = ε(e^u) − target changes sign on [log prev, log v].
      auto f = [&](double u) { return eps(std::exp(u)) - target; };
      std::uintmax_t iterations = 100;
      const auto [a, b] = boost::math::tools::toms748_solve(
          f, std::log(prev), std::log(v), boost::math::tools::eps_tolerance<double>(40),
          iterations);
      // Return the feasible end of the final bracket (the larger value if in doubt).
      const double ea = std::exp(a), eb = std::exp(b);
      if (eps(ea) <= target) return Crossing{ea, false};
      if (eps(eb) <= target) return Crossing{eb, false};
      return Crossing{v, false};
    }
    prev = v;
  }
  return std::nullopt;
}

}  // namespace

std::string to_string(CalibrationParameter p) {
  switch (p) {
    case CalibrationParameter::R:
      return "r";
    case CalibrationParameter::Eta:
      return "eta";
    case CalibrationParameter::Draws:
      return "draws";
    case CalibrationParameter::Sigma:
      return "sigma";
    case CalibrationParameter::Noise:
      return "noise";
  }
  return "unknown";
}

CalibrationParameter parse_calibration_parameter(const std::string& name) {
  if (name == "r") return CalibrationParameter::R;
  if (name == "eta") return CalibrationParameter::Eta;
  if (name == "draws" || name == "L") return CalibrationParameter::Draws;
  if (name == "sigma") return CalibrationParameter::Sigma;
  if (name == "noise") return CalibrationParameter::Noise;
  throw ParameterError({"solve"},
                       fmt::format("solve must be r, eta, draws, sigma or noise, got '{}'", name));
}

Calibration calibrate(const GpMechanism& m, long draws, CalibrationParameter what,
                      const CalibrationTarget& target) {
  return calibrate(m, draws, what, target, Accountant());
}

Calibration calibrate(const GpMechanism& m, long draws, CalibrationParameter what,
                      const CalibrationTarget& target, const Accountant& also) {
  require(std::isfinite(target.epsilon) && target.epsilon > 0,
          fmt::format("target ε must be positive and finite, got {}", target.epsilon));
  require(target.delta > 0 && target.delta < 1,
          fmt::format("δ must lie in (0, 1), got {}", target.delta));
  require(draws >= 1, fmt::format("draws must be ≥ 1, got {}", draws));
  if (what == CalibrationParameter::R) {
    require(!m.user_Vn && !m.user_Delta_n,
            "cannot solve for r with a user-supplied V_n or Δ_n: those bounds hold at one r only");
  }
  const bool functional = m.kind == MechanismKind::Functional;
  const bool aggregate = is_aggregate(m.kind);
  if (aggregate) {
    require(what == CalibrationParameter::Noise,
            fmt::format("the {} calibrates its noise scale only (solve noise)", to_string(m.kind)));
  } else {
    require(functional == (what == CalibrationParameter::Noise) ||
                what == CalibrationParameter::R || what == CalibrationParameter::Draws,
            functional
                ? "the functional mechanism calibrates its noise scale s, r or L (not η or σ)"
                : "only the functional mechanism, the grid mean and the prior mean have a noise "
                  "scale s to calibrate");
  }
  // Validates everything else up front (s itself is the unknown when solving for it).
  resolve_bounds(what == CalibrationParameter::Noise ? with_value(m, what, 1.0) : m);

  const double eps0 = target.epsilon;
  Calibration out;
  out.parameter = what;
  out.draws = draws;
  // ε(δ) of L draws of mm composed with the fixed events `also` (the release's other parts).
  auto composed = [&](const GpMechanism& mm, long L) {
    Accountant acc = also;
    acc.add(mm, L);
    return acc.epsilon(target.delta, target.conversion);
  };
  auto eps_of = [&](const GpMechanism& mm, long L) { return composed(mm, L).epsilon; };

  if (what == CalibrationParameter::Draws) {
    if (eps_of(m, 1) > eps0) {
      throw PrivacyError(
          fmt::format("infeasible: even one draw gives ε = {:.6g} > target {} (δ = {}, {})",
                      eps_of(m, 1), eps0, target.delta, to_string(target.conversion)));
    }
    long good = 1, bad = 0;
    constexpr long kCap = 1L << 40;
    while (bad == 0) {
      const long next = good * 2;
      if (next > kCap) break;
      if (eps_of(m, next) <= eps0)
        good = next;
      else
        bad = next;
    }
    if (bad == 0) {
      out.note = fmt::format("the target holds for every L up to the search cap {}", kCap);
    } else {
      while (bad - good > 1) {
        const long mid = good + (bad - good) / 2;
        if (eps_of(m, mid) <= eps0)
          good = mid;
        else
          bad = mid;
      }
    }
    out.value = static_cast<double>(good);
    out.draws = good;
    out.mechanism = m;
  } else {
    double lo = 1e-6, hi = 1e9;
    if (what == CalibrationParameter::Eta) {
      if (eps_of(with_value(m, what, 0.0), draws) <= eps0) {
        out.value = 0.0;
        out.note = "η = 0 already meets the target (no added noise needed)";
      }
      lo = 1e-8;
      hi = 1e12;
    }
    if (what == CalibrationParameter::Noise) {
      lo = 1e-8;
      hi = 1e12;
    }
    if (what == CalibrationParameter::Sigma) {
      const double eps_inf = eps_of(with_value(m, what, kInf), draws);
      if (eps_inf > eps0) {
        throw PrivacyError(fmt::format(
            "infeasible: the covariance-only term 2ψ_α(τ̃) alone gives ε = {:.6g} > target {} even "
            "as σ → ∞ (increase r or η, or release fewer draws)",
            eps_inf, eps0));
      }
      hi = 1e12;
    }
    if (out.note.empty()) {
      auto eps = [&](double v) { return eps_of(with_value(m, what, v), draws); };
      const auto c = first_crossing(eps, lo, hi, eps0);
      if (!c) {
        throw PrivacyError(fmt::format(
            "infeasible: no {} in [{}, {}] brings ε(δ = {}) of {} draw(s) below {} ({} conversion)",
            to_string(what), lo, hi, target.delta, draws, eps0, to_string(target.conversion)));
      }
      out.value = c->value;
      if (c->below_range) {
        out.note = fmt::format(
            "already met at the smallest {} searched ({}); smaller values were "
            "not explored",
            to_string(what), lo);
      }
    }
    out.mechanism = with_value(m, what, out.value);
  }
  out.achieved = composed(out.mechanism, out.draws);
  if (!(out.achieved.epsilon <= eps0)) {
    throw NumericalError(
        fmt::format("calibration failed its own check: ε = {} > target {} at {} = {}",
                    out.achieved.epsilon, eps0, to_string(what), out.value));
  }
  return out;
}

}  // namespace gpdp::privacy
