// gpdp::quantile and gpdp::interval (the preview's and --mechanism auto's predicted utility)
// against order statistics computed by hand.
#include <gtest/gtest.h>

#include <vector>

#include "gpdp/interval.hpp"

namespace gpdp {
namespace {

TEST(Interval, QuantileInterpolatesBetweenOrderStatistics) {
  // 0, 1, ..., 20 shuffled: the p-quantile is 20 p exactly.
  std::vector<double> v;
  for (int i = 0; i <= 20; ++i) v.push_back(static_cast<double>((8 * i) % 21));
  EXPECT_DOUBLE_EQ(quantile(v, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(quantile(v, 0.05), 1.0);
  EXPECT_DOUBLE_EQ(quantile(v, 0.5), 10.0);
  EXPECT_DOUBLE_EQ(quantile(v, 1.0), 20.0);
  // Between two order statistics of {1, 3}: linear.
  EXPECT_DOUBLE_EQ(quantile({3.0, 1.0}, 0.25), 1.5);
  EXPECT_DOUBLE_EQ(quantile({4.0}, 0.95), 4.0);
}

TEST(Interval, MeanAndFiveToNinetyFivePercent) {
  const std::vector<double> v{0.9, 0.1, 0.5, 0.3, 0.7};  // sorted 0.1 … 0.9, step 0.2
  const Interval i = interval(v);
  EXPECT_NEAR(i.mean, 0.5, 1e-15);
  EXPECT_NEAR(i.lo, 0.1 + 0.05 * 4 * 0.2, 1e-15);
  EXPECT_NEAR(i.hi, 0.1 + 0.95 * 4 * 0.2, 1e-15);
}

}  // namespace
}  // namespace gpdp
