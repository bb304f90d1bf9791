#include "gpdp/ops/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::ops {

namespace {
double mean(const Eigen::VectorXd& v) { return v.mean(); }
double variance(const Eigen::VectorXd& v) {
  return (v.array() - v.mean()).square().sum() / static_cast<double>(v.size() - 1);
}
// BDA3 §11.4: between (B/n) and within (W) chain variances, var⁺ = (n−1)/n W + B/n.
void between_within(const std::vector<Eigen::VectorXd>& chains, double& w, double& var_plus) {
  const double n = static_cast<double>(chains.front().size());
  double grand = 0.0;
  for (const auto& c : chains) grand += mean(c);
  grand /= static_cast<double>(chains.size());
  double b = 0.0;
  w = 0.0;
  for (const auto& c : chains) {
    b += (mean(c) - grand) * (mean(c) - grand);
    w += variance(c);
  }
  const double m = static_cast<double>(chains.size());
  b *= n / (m - 1.0);
  w /= m;
  var_plus = (n - 1.0) / n * w + b / n;
}
}  // namespace

double split_rhat(const std::vector<Eigen::VectorXd>& chains) {
  require(!chains.empty() && chains.front().size() >= 4, "split_rhat: need chains of length >= 4");
  std::vector<Eigen::VectorXd> halves;
  const Eigen::Index half = chains.front().size() / 2;
  for (const auto& c : chains) {
    halves.emplace_back(c.head(half));
    halves.emplace_back(c.segment(c.size() - half, half));
  }
  double w = 0.0, var_plus = 0.0;
  between_within(halves, w, var_plus);
  if (w <= 0) return var_plus <= 0 ? 1.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(var_plus / w);
}

double effective_sample_size(const std::vector<Eigen::VectorXd>& chains) {
  require(!chains.empty() && chains.front().size() >= 4, "effective_sample_size: need length >= 4");
  const Eigen::Index n = chains.front().size();
  const double m = static_cast<double>(chains.size());
  double w = 0.0, var_plus = 0.0;
  if (chains.size() >= 2) {
    between_within(chains, w, var_plus);
  } else {
    var_plus = variance(chains.front());
  }
  if (var_plus <= 0) return m * static_cast<double>(n);
  auto autocov = [&](Eigen::Index lag) {
    double total = 0.0;
    for (const auto& c : chains) {
      const double mu = mean(c);
      double s = 0.0;
      for (Eigen::Index i = 0; i + lag < n; ++i) s += (c(i) - mu) * (c(i + lag) - mu);
      total += s / static_cast<double>(n);
    }
    return total / m;
  };
  const double c0 = autocov(0);
  // Within-chain autocovariances averaged over chains; ρ_t = 1 − (W − mean autocov_t)/var⁺.
  auto rho = [&](Eigen::Index lag) { return 1.0 - (c0 - autocov(lag)) / var_plus; };
  // Geyer: sum consecutive pairs while their sum stays positive.
  double sum = 0.0;
  for (Eigen::Index t = 1; t + 1 < n; t += 2) {
    const double pair = rho(t) + rho(t + 1);
    if (pair < 0) break;
    sum += pair;
  }
  const double tau = std::max(1.0 + 2.0 * sum, 1.0 / std::log10(m * static_cast<double>(n)));
  return m * static_cast<double>(n) / tau;
}

ChainDiagnostics diagnose(const std::vector<Eigen::MatrixXd>& draws) {
  require(!draws.empty(), "diagnose: no chains");
  ChainDiagnostics d;
  d.min_ess = std::numeric_limits<double>::infinity();
  for (Eigen::Index j = 0; j < draws.front().cols(); ++j) {
    std::vector<Eigen::VectorXd> coord;
    for (const auto& c : draws) coord.emplace_back(c.col(j));
    d.max_rhat = std::max(d.max_rhat, split_rhat(coord));
    d.min_ess = std::min(d.min_ess, effective_sample_size(coord));
  }
  return d;
}

}  // namespace gpdp::ops
