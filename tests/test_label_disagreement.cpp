// The calibrated preview's label statistic (release/label_disagreement.hpp, docs/privacy.md "The
// label statistic"): D and P on hand-counted cells; by brute force over random replace-one
// neighbours, |ΔD| ≤ 1 and |ΔP| ≤ 1, and the exact Rényi divergence of the two released pairs never
// exceeds the RDP curve (which is the closed form α/s²) and is attained; the event's JSON; the
// noise's law; the nugget weights and their stratified use.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gpdp/auditor/gaussian_divergence.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/privacy/json.hpp"
#include "gpdp/release/label_disagreement.hpp"
#include "gpdp/release/snapping.hpp"
#include "support/gof.hpp"

namespace gpdp::release {
namespace {

TEST(LabelDisagreement, CountsTheMinoritySideOfEachCell) {
  const CellLayout cells{Box::parse("0:1,0:1"), {2, 1}};
  Points X(7, 2);
  // Left cell: 3 above, 1 below (D 1, P 2); right cell: 1 above, 2 below (D 1, P 1).
  X << 0.1, 0.1, 0.2, 0.5, 0.3, 0.9, 0.4, 0.4, 0.6, 0.1, 0.7, 0.5, 1.0, 1.0;
  Eigen::VectorXd above(7);
  above << 1, 1, 1, -1, 1, -1, 0;  // 0 (at t) counts as below
  const LabelCounts c = label_counts(cells, X, above);
  EXPECT_EQ(c.disagreement, 2.0);
  EXPECT_EQ(c.pairs, 3.0);
  // About kLabelRecordsPerCell records per cell.
  EXPECT_EQ(label_cells(Box::parse("0:1,0:1"), 400).size(), 100);
  EXPECT_EQ(label_cells(Box::parse("0:2,0:1"), 200).counts, (std::vector<long>{10, 5}));
  EXPECT_EQ(label_cells(Box::parse("0:1"), 2).size(), 1);
}

// Brute force: random data sets (n = 40, 2-D, few cells so that cells are crowded, and many cells
// so that most are empty or single) and random replace-one neighbours (a record moved and its label
// changed, or only one of the two). |ΔD| ≤ 1, |ΔP| ≤ 1, and the exact divergence of N((D, P), s²I)
// against its neighbour's never exceeds the curve; moving a majority record into another cell's
// balance attains it.
TEST(LabelDisagreement, SensitivityByBruteForceAndTheExactDivergenceWithinTheCurve) {
  SeededRng rng(11);
  const long n = 40;
  const double s = 1.7;
  const privacy::RdpCurve curve = privacy::rdp_curve(label_mechanism(n, s));
  for (const double alpha : {1.5, 4.0, 30.0}) EXPECT_NEAR(curve(alpha), alpha / (s * s), 1e-12);
  const Eigen::Matrix2d cov = s * s * Eigen::Matrix2d::Identity();
  double worst = 0.0;
  long pairs = 0;
  for (const std::vector<long>& counts :
       {std::vector<long>{2, 2}, std::vector<long>{4, 3}, std::vector<long>{12, 12}}) {
    const CellLayout cells{Box::parse("0:1,0:1"), counts};
    for (int trial = 0; trial < 20000; ++trial) {
      Points X(n, 2);
      Eigen::VectorXd y(n);
      for (long i = 0; i < n; ++i) {
        X(i, 0) = rng.uniform01();
        X(i, 1) = rng.uniform01();
        y(i) = rng.uniform01() < 0.5 ? 1.0 : -1.0;
      }
      Points X2 = X;
      Eigen::VectorXd y2 = y;
      const auto i = static_cast<Eigen::Index>(rng.uniform01() * static_cast<double>(n)) % n;
      const int change = trial % 3;  // 0: location and label, 1: label only, 2: location only
      if (change != 1) {
        X2(i, 0) = rng.uniform01();
        X2(i, 1) = rng.uniform01();
      }
      if (change != 2) y2(i) = rng.uniform01() < 0.5 ? 1.0 : -1.0;
      const LabelCounts a = label_counts(cells, X, y), b = label_counts(cells, X2, y2);
      ASSERT_LE(std::abs(a.disagreement - b.disagreement), 1.0);
      ASSERT_LE(std::abs(a.pairs - b.pairs), 1.0);
      const double exact =
          auditor::gaussian_renyi_divergence(4.0, Eigen::Vector2d(a.disagreement, a.pairs), cov,
                                             Eigen::Vector2d(b.disagreement, b.pairs), cov);
      ASSERT_LE(exact, curve(4.0) * (1 + 1e-12));
      worst = std::max(worst, exact / curve(4.0));
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, 60000);
  EXPECT_NEAR(worst, 1.0, 1e-12);  // some pair moves both D and P by 1: the bound is tight
}

TEST(LabelDisagreement, EventRoundTripsAndCalibratesToItsTarget) {
  const privacy::GpMechanism m = label_mechanism(500, 2.5);
  const nlohmann::json j = privacy::to_json(m);
  EXPECT_EQ(j.at("kind"), "label-disagreement");
  const privacy::GpMechanism back = privacy::mechanism_from_json(j, "test");
  EXPECT_EQ(back.kind, privacy::MechanismKind::LabelDisagreement);
  EXPECT_DOUBLE_EQ(privacy::rdp_curve(back)(3.0), privacy::rdp_curve(m)(3.0));
  // Calibrated alone to ε = 0.5 at δ = 1e-5 (Mironov): ρ + 2√(ρ log(1/δ)) = 0.5 with ρ = 1/s².
  const double delta = 1e-5;
  const auto cal =
      privacy::calibrate(label_mechanism(500, 1.0), 1, privacy::CalibrationParameter::Noise,
                         {0.5, delta, privacy::Conversion::Mironov});
  const double rho = 1.0 / (cal.mechanism.noise_scale * cal.mechanism.noise_scale);
  EXPECT_LE(rho + 2 * std::sqrt(rho * std::log(1 / delta)), 0.5 * (1 + 1e-9));
  EXPECT_GE(rho + 2 * std::sqrt(rho * std::log(1 / delta)), 0.5 * (1 - 1e-3));
}

// D̃ − D and P̃ − P are N(0, s²) up to the lattice (Λ ≤ s/256): KS against N(0, s²) over 20,000
// seeded draws (under H0 p < 1e-3 with probability 1e-3 each; a 15 % error in s, KS distance 0.033
// against the critical 0.014, is rejected with power > 0.999 at this size).
TEST(LabelDisagreement, NoiseIsGaussianAtItsScaleAndOnTheLattice) {
  const CellLayout cells{Box::parse("0:1"), {5}};
  const LabelCounts exact{7.0, 20.0};
  const double s = 3.0;
  const Granularity g = count_lattice(50, s);
  SeededRng rng(21);
  std::vector<double> d, p;
  for (int k = 0; k < 20000; ++k) {
    const LabelStatistic t = noisy_label_statistic(cells, exact, 50, s, rng);
    ASSERT_EQ(snap(t.noisy.disagreement, g), t.noisy.disagreement);
    ASSERT_EQ(snap(t.noisy.pairs, g), t.noisy.pairs);
    d.push_back(t.noisy.disagreement - exact.disagreement);
    p.push_back(t.noisy.pairs - exact.pairs);
  }
  EXPECT_GT(test::ks_normal_pvalue(d, 0.0, s), 1e-3);
  EXPECT_GT(test::ks_normal_pvalue(p, 0.0, s), 1e-3);
  EXPECT_LT(test::ks_normal_pvalue(d, 0.0, 1.15 * s), 1e-3);
}

TEST(LabelDisagreement, NuggetWeightsFollowTheRatioAndFallBackToThePrior) {
  // Simulated ratios 0.05, 0.15, 0.3, 0.45, 0.55 at the five nuggets, tight (±0.01).
  const std::vector<double> centre{0.05, 0.15, 0.3, 0.45, 0.55};
  std::vector<std::vector<LabelCounts>> simulated;
  for (const double c : centre)
    simulated.push_back({{(c - 0.01) * 200, 200}, {c * 200, 200}, {(c + 0.01) * 200, 200}});
  const CellLayout cells{Box::parse("0:1"), {50}};
  const auto weights_at = [&](double ratio, double pairs, double s) {
    return nugget_weights(LabelStatistic{cells, {ratio * pairs, pairs}, s, 200}, simulated);
  };
  for (const auto& [ratio, expected] :
       std::vector<std::pair<double, std::size_t>>{{0.05, 0}, {0.3, 2}, {0.55, 4}}) {
    const std::vector<double> w = weights_at(ratio, 100, 1.0);
    EXPECT_NEAR(std::accumulate(w.begin(), w.end(), 0.0), 1.0, 1e-12);
    EXPECT_GT(w[expected], 0.95) << "ratio " << ratio;
  }
  // Noise much larger than the pairs: no information, the prior.
  const std::vector<double> prior = weights_at(0.3, 10, 20.0);
  for (std::size_t j = 0; j < prior.size(); ++j) EXPECT_DOUBLE_EQ(prior[j], kLabelNuggetPrior[j]);
  // Stratified: all on ν = 0; half and half.
  EXPECT_EQ(stratified_nuggets({1, 0, 0, 0, 0}, 10), std::vector<double>(10, 0.0));
  const std::vector<double> half = stratified_nuggets({0.5, 0, 0.5, 0, 0}, 10);
  EXPECT_EQ(std::count(half.begin(), half.end(), 0.0), 5);
  EXPECT_EQ(std::count(half.begin(), half.end(), 0.5), 5);
}

}  // namespace
}  // namespace gpdp::release
