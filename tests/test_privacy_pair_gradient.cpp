// The auditor's differentiable objectives: values equal the exact oracles, analytic gradients equal
// central finite differences in every coordinate (covariates, responses, test points), the mean
// sensitivity equals the one-step update formula, and with η = 0 test points beyond {x, x'} add
// nothing to D_α (the whitening argument in docs/privacy.md).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "gpdp/auditor/neighbour_pair.hpp"
#include "gpdp/auditor/pair_gradient.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"

using namespace gpdp;
using namespace gpdp::auditor;

namespace {

NeighbourPair random_pair(Rng& rng, int n, int d, int extra_test, bool same) {
  NeighbourPair p;
  p.X.resize(n, d);
  p.y.resize(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < d; ++j) p.X(i, j) = rng.uniform01();
    p.y[i] = 2.0 * rng.uniform01() - 1.0;
  }
  p.Xp = p.X;
  p.yp = p.y;
  if (!same) {
    for (int j = 0; j < d; ++j) p.Xp(n - 1, j) = rng.uniform01();
  }
  p.yp[n - 1] = 2.0 * rng.uniform01() - 1.0;
  const int fixed = same ? 1 : 2;
  p.test.resize(fixed + extra_test, d);
  p.test.row(0) = p.X.row(n - 1);
  if (!same) p.test.row(1) = p.Xp.row(n - 1);
  for (int i = fixed; i < fixed + extra_test; ++i) {
    for (int j = 0; j < d; ++j) p.test(i, j) = rng.uniform01();
  }
  return p;
}

// Every scalar of a pair, addressable by index, for finite differences.
std::vector<double*> coordinates(NeighbourPair& p) {
  std::vector<double*> out;
  for (Eigen::MatrixXd* M : {&p.X, &p.Xp, &p.test}) {
    for (Eigen::Index k = 0; k < M->size(); ++k) out.push_back(M->data() + k);
  }
  for (Eigen::VectorXd* v : {&p.y, &p.yp}) {
    for (Eigen::Index k = 0; k < v->size(); ++k) out.push_back(v->data() + k);
  }
  return out;
}

// Central differences of f over every coordinate against the analytic gradient g (same layout).
// The exponential kernel has a cusp where a test point sits on a training point (the differing
// points are in both sets): moving one of them alone gives a central difference that is exact only
// to O(h), hence the smaller step for that kernel.
void expect_gradient(const std::function<double(const NeighbourPair&)>& f, NeighbourPair pair,
                     PairGradient g, const Kernel& kernel, const std::string& what) {
  const double h = kernel.family() == KernelFamily::Exponential ? 1e-8 : 1e-6;
  auto xs = coordinates(pair);
  auto gs = coordinates(g);
  ASSERT_EQ(xs.size(), gs.size());
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const double x0 = *xs[k];
    *xs[k] = x0 + h;
    const double up = f(pair);
    *xs[k] = x0 - h;
    const double down = f(pair);
    *xs[k] = x0;
    const double fd = (up - down) / (2 * h);
    EXPECT_NEAR(*gs[k], fd, 2e-5 * std::max(1.0, std::abs(fd)))
        << what << ", coordinate " << k << " of " << xs.size();
  }
}

struct Case {
  Kernel kernel;
  int d;
};

const std::vector<Case> kCases = {{Kernel::exponential(0.4), 1},
                                  {Kernel::exponential(0.5), 2},
                                  {Kernel::squared_exponential(0.6), 2},
                                  {Kernel::matern32(0.5), 2},
                                  {Kernel::matern52(0.7), 1},
                                  {Kernel::constant(), 2}};

}  // namespace

TEST(PrivacyPairGradient, RenyiDivergenceMatchesOracleAndFiniteDifferences) {
  SeededRng rng(11);
  int checked = 0;
  for (const auto& c : kCases) {
    for (const double eta : {0.0, 0.3}) {
      for (const bool same : {false, true}) {
        const int n = 1 + static_cast<int>(rng.uniform01() * 5);
        const NeighbourPair p = random_pair(rng, n, c.d, 2, same);
        const double r = 0.5 + rng.uniform01(), sigma = 0.3 + rng.uniform01();
        const double alpha = 1.0 + 0.9 * r * r * (0.05 + 0.95 * rng.uniform01());  // admissible
        auto f = [&](const NeighbourPair& q) {
          return renyi_divergence_with_gradient(c.kernel, r, sigma, eta, q, alpha);
        };
        PairGradient g;
        const double v = renyi_divergence_with_gradient(c.kernel, r, sigma, eta, p, alpha, &g);
        const double oracle = pair_renyi_divergence(c.kernel, r, sigma, eta, p, alpha);
        if (!std::isfinite(v) || !std::isfinite(oracle)) continue;  // constant kernel: singular
        EXPECT_NEAR(v, oracle, 1e-7 * std::max(1.0, oracle)) << c.kernel.name();
        expect_gradient(f, p, g, c.kernel, c.kernel.name() + " D_α");
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 18);
}

TEST(PrivacyPairGradient, SensitivityMatchesOneStepFormulaAndFiniteDifferences) {
  SeededRng rng(12);
  for (const auto& c : kCases) {
    for (const bool same : {false, true}) {
      const int n = 1 + static_cast<int>(rng.uniform01() * 5);
      const NeighbourPair p = random_pair(rng, n, c.d, 0, same);
      const double r = 0.4 + rng.uniform01();
      PairGradient g;
      const double v2 = squared_sensitivity_with_gradient(c.kernel, r, p, &g);
      const double oracle = pair_sensitivity(c.kernel, r, p);
      if (!std::isfinite(v2)) continue;
      EXPECT_NEAR(std::sqrt(v2), oracle, 1e-7 * std::max(1.0, oracle)) << c.kernel.name();
      // One-step update (paper eq. 9): μ_D − μ_D' = a k_{D−}(·,x) − a' k_{D−}(·,x') with
      // a = (y − μ_{D−}(x)) / (r² + v), so ‖·‖²_{H−} = a²v + a'²v' − 2aa'c.
      Points T(2, c.d);
      T.row(0) = p.X.row(n - 1);
      T.row(1) = p.Xp.row(n - 1);
      Eigen::VectorXd mu = Eigen::VectorXd::Zero(2);
      Eigen::MatrixXd K = c.kernel.gram(T);
      if (n > 1) {
        const Posterior core(c.kernel, p.X.topRows(n - 1), p.y.head(n - 1), {r, 1.0});
        mu = core.mean(T);
        K = core.covariance(T);
      }
      const double a = (p.y[n - 1] - mu[0]) / (r * r + K(0, 0));
      const double ap = (p.yp[n - 1] - mu[1]) / (r * r + K(1, 1));
      const double formula = a * a * K(0, 0) + ap * ap * K(1, 1) - 2 * a * ap * K(0, 1);
      EXPECT_NEAR(v2, formula, 1e-8 * std::max(1.0, formula)) << c.kernel.name();
      // Moving x alone off x' = x switches to S = {x, x'}, a nearly singular 2 x 2: differentiate
      // general pairs only.
      if (same) continue;
      expect_gradient(
          [&](const NeighbourPair& q) { return squared_sensitivity_with_gradient(c.kernel, r, q); },
          p, g, c.kernel, c.kernel.name() + " Δ²");
    }
  }
}

TEST(PrivacyPairGradient, TestPointsBeyondTheDifferingPointsAddNothingWithoutAddedNoise) {
  SeededRng rng(13);
  const Kernel k = Kernel::exponential(0.5);
  for (int trial = 0; trial < 20; ++trial) {
    const NeighbourPair with = random_pair(rng, 4, 2, 6, false);
    NeighbourPair without = with;
    without.test = with.test.topRows(2);
    const double alpha = 1.0 + 0.9 * 0.64 * (0.05 + 0.95 * rng.uniform01());  // < 1 + r²/V_n
    const double a = pair_renyi_divergence(k, 0.8, 0.4, 0.0, with, alpha);
    const double b = pair_renyi_divergence(k, 0.8, 0.4, 0.0, without, alpha);
    ASSERT_TRUE(std::isfinite(a) && std::isfinite(b)) << a << " " << b << " trial " << trial;
    EXPECT_NEAR(a, b, 1e-7 * b);
    // With added prior noise (η > 0) the test set does matter, and more points never hurt.
    const double ae = pair_renyi_divergence(k, 0.8, 0.4, 0.5, with, alpha);
    const double be = pair_renyi_divergence(k, 0.8, 0.4, 0.5, without, alpha);
    EXPECT_GE(ae, be * (1 - 1e-9));
  }
}
