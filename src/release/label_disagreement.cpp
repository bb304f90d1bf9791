// The calibrated preview's label statistic (label_disagreement.hpp).
#include "gpdp/release/label_disagreement.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gpdp/error.hpp"
#include "gpdp/release/snapping.hpp"

namespace gpdp::release {

CellLayout label_cells(const Box& domain, long n) {
  return square_cells(domain, std::max(1.0, static_cast<double>(n) / kLabelRecordsPerCell));
}

LabelCounts label_counts(const CellLayout& cells, const Points& X, const Eigen::VectorXd& above) {
  require(X.rows() == above.size(), "label_counts: one side per record");
  const auto C = static_cast<std::size_t>(cells.size());
  std::vector<long> records(C, 0), up(C, 0);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const auto c = static_cast<std::size_t>(cells.cell_of(X.row(i).transpose()));
    ++records[c];
    if (above(i) > 0) ++up[c];
  }
  LabelCounts out;
  for (std::size_t c = 0; c < C; ++c) {
    out.disagreement += static_cast<double>(std::min(up[c], records[c] - up[c]));
    out.pairs += static_cast<double>(records[c] / 2);
  }
  return out;
}

privacy::GpMechanism label_mechanism(long n, double noise_scale) {
  privacy::GpMechanism m;
  m.kind = privacy::MechanismKind::LabelDisagreement;
  m.n = n;
  m.M_Y = 1.0;
  m.noise_scale = noise_scale;
  return m;
}

LabelStatistic noisy_label_statistic(const CellLayout& cells, const LabelCounts& exact, long n,
                                     double noise_scale, Rng& rng) {
  std::array<double, 2> z{};
  rng.fill_standard_normal(z.data(), z.size());
  const Granularity g = count_lattice(n, noise_scale);
  LabelStatistic s{
      cells,
      {snap(exact.disagreement + noise_scale * z[0], g), snap(exact.pairs + noise_scale * z[1], g)},
      noise_scale,
      n};
  z.fill(0.0);
  return s;
}

namespace {
bool informative(const LabelStatistic& s) { return s.noisy.pairs >= 2.0 * s.noise_scale; }
}  // namespace

nlohmann::json to_json(const LabelStatistic& s) {
  return {{"cells", s.cells.counts},
          {"disagreement", s.noisy.disagreement},
          {"pairs", s.noisy.pairs},
          {"noise_scale", s.noise_scale},
          {"ratio", s.noisy.pairs >= 1 ? nlohmann::json(s.noisy.disagreement / s.noisy.pairs)
                                       : nlohmann::json(nullptr)}};
}

std::vector<double> nugget_weights(const LabelStatistic& s,
                                   const std::vector<std::vector<LabelCounts>>& simulated) {
  require(simulated.size() == kLabelNuggets.size(), "nugget_weights: one list per nugget");
  std::vector<double> w(kLabelNuggetPrior.begin(), kLabelNuggetPrior.end());
  if (!informative(s)) return w;
  const double rho = s.noisy.disagreement / s.noisy.pairs;
  const double noise_var =
      s.noise_scale * s.noise_scale * (1.0 + rho * rho) / (s.noisy.pairs * s.noisy.pairs);
  // Per nugget the simulated ratios' mean; their spread pooled over the nuggets (a few draws per
  // nugget estimate a variance poorly, and a small one would make the weights jump between
  // neighbouring nuggets).
  std::vector<double> means(w.size());
  double pooled = 0.0, dof = 0.0;
  for (std::size_t j = 0; j < w.size(); ++j) {
    std::vector<double> ratios;
    for (const LabelCounts& c : simulated[j])
      if (c.pairs > 0) ratios.push_back(c.disagreement / c.pairs);
    require(!ratios.empty(), "nugget_weights: no simulated ratio");
    const double K = static_cast<double>(ratios.size());
    means[j] = std::accumulate(ratios.begin(), ratios.end(), 0.0) / K;
    for (const double r : ratios) pooled += (r - means[j]) * (r - means[j]);
    dof += K - 1;
  }
  const double v = (dof > 0 ? pooled / dof : 0.0) + noise_var;
  std::vector<double> log_w(w.size());
  for (std::size_t j = 0; j < w.size(); ++j)
    log_w[j] = std::log(w[j]) - 0.5 * (rho - means[j]) * (rho - means[j]) / v;
  const double top = *std::max_element(log_w.begin(), log_w.end());
  double total = 0.0;
  for (std::size_t j = 0; j < w.size(); ++j) total += w[j] = std::exp(log_w[j] - top);
  for (double& x : w) x /= total;
  return w;
}

std::vector<double> stratified_nuggets(const std::vector<double>& weights, int count) {
  require(weights.size() == kLabelNuggets.size() && count >= 1,
          "stratified_nuggets: one weight per nugget and at least one data set");
  std::vector<double> out;
  for (int k = 0; k < count; ++k) {
    const double u = (k + 0.5) / count;
    double cumulative = 0.0;
    std::size_t j = 0;
    for (; j + 1 < weights.size(); ++j) {
      cumulative += weights[j];
      if (u < cumulative) break;
    }
    out.push_back(kLabelNuggets[j]);
  }
  return out;
}

}  // namespace gpdp::release
