// The privacy filter of a budget (Feldman & Zrnic 2021, Thm 3.1, at orders fixed when the budget
// is created): its admission rule, its order choice, a sequence where it refuses what optimising
// the order after the fact would admit, and its JSON round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/privacy/filter.hpp"
#include "gpdp/privacy/order_search.hpp"

using namespace gpdp;
using namespace gpdp::privacy;

namespace {

// A GP mechanism with user-supplied V_n and Δ_n: with V_n = 0 its curve is the Gaussian
// mechanism's, ε_α = α μ²/2 with μ = Δ_n/σ (Theorem 3.1 with τ = 0).
GpMechanism user_mechanism(double Vn, double Delta_n) {
  GpMechanism m;
  m.kernel = Kernel::exponential(1.0);
  m.n = 10;
  m.r = 1.0;
  m.sigma = 1.0;
  m.lemma = SensitivityLemma::User;
  m.user_Vn = Vn;
  m.user_Delta_n = Delta_n;
  return m;
}

Accountant of(const GpMechanism& m, long count = 1) {
  Accountant a;
  a.add(m, count);
  return a;
}

// The rule optimised over α after the releases (the ledger's rule before this filter): the
// infimum over every admissible order of Σ ε_α + c(α, δ). Not proven for adaptive releases.
double natural_epsilon(const Accountant& all, double delta) {
  return all.epsilon(delta, Conversion::CKS).epsilon;
}

}  // namespace

// Gaussian releases only (a totally ordered family): the order that holds the most copies of the
// first release admits exactly what optimising the order afterwards admits.
TEST(PrivacyFilter, GaussianReleasesAdmitWhatTheBestOrderAdmits) {
  const Budget budget{1.4, 1e-5};
  const auto filter = RenyiFilter::create(budget, Conversion::CKS, of(user_mechanism(0, 0.25)));
  ASSERT_EQ(filter.orders().size(), 1u);
  int admitted = 0;
  for (double mu : {0.05, 0.1, 0.2, 0.22, 0.25, 0.3}) {
    Accountant all = of(user_mechanism(0, 0.25));
    all.add(user_mechanism(0, mu), 1);
    const bool natural = natural_epsilon(all, budget.delta) <= budget.epsilon;
    const auto s = filter.spend(all);
    // Near the boundary the two agree to the optimiser's precision.
    if (std::abs(natural_epsilon(all, budget.delta) - budget.epsilon) > 1e-6) {
      EXPECT_EQ(s.admitted, natural) << mu;
    }
    EXPECT_GE(s.epsilon, natural_epsilon(all, budget.delta) - 1e-9) << mu;
    admitted += s.admitted;
  }
  EXPECT_EQ(admitted, 4);  // μ ≤ 0.22 fit (ε = 1.03 ... 1.38), μ ≥ 0.25 do not (1.48)
}

// The sequence where the rule matters: a Gaussian release fixes the order; a second release whose
// curve is covariance-shaped (V_n = 0.3, Δ_n = 0: admissible only for α < 1 + 1/0.3) would be
// admitted by optimising α over both afterwards (ε = 3.96 ≤ 4), but at the budget's order the sum
// exceeds the RDP budget: the filter refuses it. Only the refusal is covered by the theorem.
TEST(PrivacyFilter, RefusesWhatReoptimisingTheOrderWouldAdmit) {
  const Budget budget{4.0, 1e-3};
  const Accountant first = of(user_mechanism(0, 1.0));
  const auto filter = RenyiFilter::create(budget, Conversion::CKS, first);
  ASSERT_EQ(filter.orders().size(), 1u);
  EXPECT_NEAR(filter.orders()[0], 4.006, 0.01);
  EXPECT_TRUE(filter.spend(first).admitted);
  Accountant both = first;
  both.add(user_mechanism(0.3, 0.0), 1);
  EXPECT_LE(natural_epsilon(both, budget.delta), budget.epsilon);  // 3.958
  const auto s = filter.spend(both);
  EXPECT_FALSE(s.admitted);
  EXPECT_GT(s.epsilon, budget.epsilon);  // 4.06
  EXPECT_GT(s.rdp, s.rdp_budget);
}

// Admission is exactly "Σ ε_α ≤ B_α at the fixed order", B_α = ε_B − c(α, δ_B/|Λ|).
TEST(PrivacyFilter, AdmitsIffTheSumStaysWithinTheRdpBudget) {
  const Budget budget{1.5, 1e-4};
  const auto filter =
      RenyiFilter::create(budget, Conversion::Mironov, of(user_mechanism(0, 1)), {8.0});
  EXPECT_NEAR(filter.rdp_budget(8.0), 1.5 - std::log(1e4) / 7.0, 1e-14);
  for (double mu : {0.1, 0.2, 0.25, 0.3}) {
    const Accountant a = of(user_mechanism(0, mu), 3);
    const double rdp = 3 * 8.0 * mu * mu / 2;
    const auto s = filter.spend(a);
    EXPECT_NEAR(s.rdp, rdp, 1e-12);
    EXPECT_EQ(s.admitted, rdp <= filter.rdp_budget(8.0)) << mu;
  }
  // Several orders share δ_B: each RDP budget is smaller than with the order alone.
  const auto two =
      RenyiFilter::create(budget, Conversion::Mironov, of(user_mechanism(0, 1)), {4.0, 8.0});
  EXPECT_NEAR(two.rdp_budget(8.0), 1.5 - std::log(2e4) / 7.0, 1e-14);
  const Accountant a = of(user_mechanism(0, 0.2), 3);
  EXPECT_NEAR(two.spend(a).epsilon,
              std::min(3 * 4.0 * 0.02 + std::log(2e4) / 3.0, 3 * 8.0 * 0.02 + std::log(2e4) / 7.0),
              1e-12);
}

TEST(PrivacyFilter, ChoosesTheOrderHoldingTheMostCopiesOfTheFirstRelease) {
  const Budget budget{3.0, 1e-5};
  const Accountant first = of(user_mechanism(0.2, 0.4));
  const auto filter = RenyiFilter::create(budget, Conversion::CKS, first);
  const double chosen = filter.orders()[0];
  const auto copies = [&](double alpha) { return filter.rdp_budget(alpha) / first.rdp(alpha); };
  for (double f : {0.5, 0.8, 0.95, 1.05, 1.25, 2.0}) {
    const double other = 1.0 + (chosen - 1.0) * f;
    if (other < first.alpha_max()) {
      EXPECT_LE(copies(other), copies(chosen) * (1 + 1e-9)) << f;
    }
  }
}

TEST(PrivacyFilter, RoundTripsAndRefusesBadBudgets) {
  const auto f = RenyiFilter::create({1.0, 1e-5}, Conversion::CKS, of(user_mechanism(0, 0.3)));
  const auto g = RenyiFilter::from_json(f.to_json(), "test");
  EXPECT_EQ(g.orders(), f.orders());
  EXPECT_EQ(g.budget().epsilon, 1.0);
  EXPECT_EQ(g.conversion(), Conversion::CKS);
  EXPECT_NE(f.to_json()["theorem"].get<std::string>().find("Feldman & Zrnic 2021"),
            std::string::npos);
  EXPECT_THROW(RenyiFilter::create({0.0, 1e-5}, Conversion::CKS, of(user_mechanism(0, 1))),
               ParameterError);
  EXPECT_THROW(RenyiFilter::create({1.0, 1.0}, Conversion::CKS, of(user_mechanism(0, 1))),
               ParameterError);
  EXPECT_THROW(RenyiFilter::create({1.0, 1e-5}, Conversion::CKS, of(user_mechanism(0, 1)), {0.5}),
               ParameterError);
  EXPECT_THROW(RenyiFilter::create({1.0, 1e-5}, Conversion::CKS, Accountant{}), ParameterError);
}
