#include "gpdp/privacy/risk.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/privacy/order_search.hpp"

namespace gpdp::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// log(e^a + e^b) with −∞ allowed.
double log_add(double a, double b) {
  if (a == -kInf) return b;
  if (b == -kInf) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(std::min(a, b) - m));
}

// p·e^{u L} with p = 0 contributing nothing (0^α = 0 for α > 1).
double log_term(double p, double u, double log_ratio) {
  return p > 0 ? std::log(p) + u * log_ratio : -kInf;
}

std::string fpr_key(double fpr) { return fmt::format("{:g}", fpr); }

}  // namespace

const std::vector<double>& risk_fprs() {
  static const std::vector<double> fprs = {0.001, 0.01, 0.1};
  return fprs;
}

double binary_renyi(double alpha, double p, double q) {
  require(alpha > 1 && p >= 0 && p <= 1 && q > 0 && q < 1,
          fmt::format("binary Rényi divergence: need α > 1, p ∈ [0, 1], q ∈ (0, 1); got α = {}, "
                      "p = {}, q = {}",
                      alpha, p, q));
  // Σ p_i (p_i/q_i)^{α−1}: with u = α − 1 small, log1p/expm1 keep full precision.
  const double u = alpha - 1.0;
  const double l1 = p > 0 ? std::log(p / q) : 0.0;
  const double l2 = p < 1 ? std::log((1 - p) / (1 - q)) : 0.0;
  const double a = u * l1, b = u * l2;
  if (std::abs(a) < 0.5 && std::abs(b) < 0.5) {
    return std::log1p(p * std::expm1(a) + (1 - p) * std::expm1(b)) / u;
  }
  return log_add(log_term(p, u, l1), log_term(1 - p, u, l2)) / u;
}

double tpr_bound_rdp(double fpr, double alpha, double rho) {
  if (!(rho < kInf) || !(alpha > 1)) return 1.0;
  const auto inside = [&](double tpr) {
    return binary_renyi(alpha, tpr, fpr) <= rho &&
           (tpr >= 1.0 ? false : binary_renyi(alpha, fpr, tpr) <= rho);
  };
  double lo = fpr, hi = 1.0;  // inside(lo) holds (d = 0); the answer lies in [lo, hi]
  if (inside(std::nextafter(1.0, 0.0))) return 1.0;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (inside(mid) ? lo : hi) = mid;
  }
  return hi;
}

double tpr_bound_rdp(double fpr, double alpha_max, const std::function<double(double)>& rdp) {
  try {
    return minimise_over_orders(alpha_max,
                                [&](double alpha) {
                                  const double rho = rdp(alpha);
                                  return std::isfinite(rho) ? tpr_bound_rdp(fpr, alpha, rho) : kInf;
                                })
        .value;
  } catch (const PrivacyError&) {
    return 1.0;  // no admissible order: the RDP curve says nothing
  }
}

double tpr_bound_epsilon_delta(double fpr, double epsilon, double delta) {
  const double direct = std::exp(epsilon) * fpr + delta;
  const double complement = 1.0 - std::exp(-epsilon) * (1.0 - fpr - delta);
  return std::clamp(std::min(direct, complement), fpr, 1.0);
}

namespace {

AttackRisk combine(const std::function<double(double)>& rdp_bound, double epsilon, double delta,
                   std::string basis) {
  AttackRisk risk;
  risk.basis = std::move(basis);
  for (const double fpr : risk_fprs()) {
    RiskAtFpr r;
    r.fpr = fpr;
    r.tpr_rdp = rdp_bound(fpr);
    r.tpr_epsilon_delta = tpr_bound_epsilon_delta(fpr, epsilon, delta);
    r.tpr = std::min(r.tpr_rdp, r.tpr_epsilon_delta);
    risk.points.push_back(r);
  }
  return risk;
}

}  // namespace

AttackRisk attack_risk(const Accountant& composed, const Guarantee& g) {
  return combine(
      [&](double fpr) {
        return tpr_bound_rdp(fpr, composed.alpha_max(),
                             [&](double alpha) { return composed.rdp(alpha); });
      },
      g.epsilon, g.delta,
      fmt::format("RDP hypothesis-testing region over every admissible order (α < {:.6g}), and "
                  "(ε, δ) = ({:.6g}, {:.3g})",
                  g.alpha_max, g.epsilon, g.delta));
}

AttackRisk attack_risk(double alpha, double rho, double epsilon, double delta) {
  if (rho < 0) {
    return combine([](double) { return 1.0; }, epsilon, delta,
                   fmt::format("(ε, δ) = ({:.6g}, {:.3g})", epsilon, delta));
  }
  return combine([&](double fpr) { return tpr_bound_rdp(fpr, alpha, rho); }, epsilon, delta,
                 fmt::format("({:.6g}, {:.6g})-RDP and (ε, δ) = ({:.6g}, {:.3g})", alpha, rho,
                             epsilon, delta));
}

nlohmann::json to_json(const AttackRisk& risk) {
  nlohmann::json tpr, rdp, ed;
  for (const auto& p : risk.points) {
    tpr[fpr_key(p.fpr)] = p.tpr;
    rdp[fpr_key(p.fpr)] = p.tpr_rdp;
    ed[fpr_key(p.fpr)] = p.tpr_epsilon_delta;
  }
  return {{"tpr_at_fpr", tpr},
          {"tpr_rdp_region", rdp},
          {"tpr_epsilon_delta", ed},
          {"basis", risk.basis}};
}

std::string risk_sentence(const AttackRisk& risk) {
  for (const auto& p : risk.points) {
    if (p.fpr == 0.01) {
      return fmt::format("an attacker at 1 % false positives identifies at most {:.3g} %",
                         100.0 * p.tpr);
    }
  }
  return "";
}

}  // namespace gpdp::privacy
