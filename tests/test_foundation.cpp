// Kernels, domains, grids, CSV input and random numbers: the pieces everything else stands on.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "gpdp/domain.hpp"
#include "gpdp/error.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/rng.hpp"

namespace gpdp {
namespace {

TEST(Kernel, NormalisedAndKappaOnUnitBox) {
  for (const auto& k :
       {Kernel::exponential(0.7), Kernel::squared_exponential(0.7), Kernel::matern32(0.7),
        Kernel::matern52(0.7), Kernel::constant(), Kernel::diagonal()}) {
    EXPECT_DOUBLE_EQ(k.of_distance(0.0), 1.0) << k.name();
  }
  // docs/mathematics.md §2: exponential kernel on [0,1]^d has κ = exp(−√d/ℓ).
  EXPECT_NEAR(Kernel::exponential(1.0).kappa(Box::unit(1)), std::exp(-1.0), 1e-15);
  EXPECT_NEAR(Kernel::exponential(0.5).kappa(Box::unit(2)), std::exp(-std::sqrt(2.0) / 0.5), 1e-15);
  EXPECT_EQ(Kernel::diagonal().kappa(Box::unit(2)), 0.0);
  EXPECT_EQ(Kernel::constant().kappa(Box::unit(3)), 1.0);
  EXPECT_NEAR(Kernel::matern32(1.0).of_distance(1.0),
              (1 + std::sqrt(3.0)) * std::exp(-std::sqrt(3.0)), 1e-15);
}

TEST(Kernel, RejectsBadLengthscaleAndName) {
  EXPECT_THROW(Kernel::exponential(0.0), InputError);
  EXPECT_THROW(Kernel::exponential(-1.0), InputError);
  EXPECT_THROW(Kernel::from_name("gauss", 1.0), InputError);
}

TEST(Kernel, GramIsSymmetricWithUnitDiagonal) {
  Points x(3, 2);
  x << 0, 0, 0.5, 0.1, 0.5, 0.1;  // duplicate covariates
  const auto k = Kernel::exponential(0.3).gram(x);
  EXPECT_TRUE(k.isApprox(k.transpose()));
  EXPECT_DOUBLE_EQ(k(1, 2), 1.0);
  EXPECT_TRUE(k.isApprox(Kernel::exponential(0.3).cross(x, x)));
}

TEST(Grid, ParsesAndOrdersFirstAxisFastest) {
  const auto g = Grid::parse("0:1:3,10:20:2");
  ASSERT_EQ(g.size(), 6);
  const auto p = g.points();
  EXPECT_DOUBLE_EQ(p(1, 0), 0.5);
  EXPECT_DOUBLE_EQ(p(1, 1), 10.0);
  EXPECT_DOUBLE_EQ(p(3, 1), 20.0);
  EXPECT_THROW(Grid::parse("0:1"), InputError);
  EXPECT_THROW(Grid::parse("1:0:5"), InputError);
}

TEST(Grid, BothEndsAreExactlyTheDeclaredValues) {
  // lo + (count − 1)·step rounds below hi for these (0.9999999999999999, 0.6363636363636362,
  // 55.00000000000001); the last node is hi itself.
  for (const auto& [text, lo, hi] :
       {std::tuple{"0:1:1000000", 0.0, 1.0},
        std::tuple{"0:0.6363636363636364:41", 0.0, 35.0 / 55.0}, std::tuple{"0:55:40", 0.0, 55.0},
        std::tuple{"-3.7:1e-3:7", -3.7, 1e-3}}) {
    const auto axis = Grid::parse(text).axes()[0];
    EXPECT_EQ(axis.at(0), lo) << text;
    EXPECT_EQ(axis.at(axis.count - 1), hi) << text;
    EXPECT_LT(axis.at(axis.count - 2), hi) << text;
  }
  const auto p = Grid::parse("0:1:1000000,2:3:2").points();
  EXPECT_EQ(p(999999, 0), 1.0);
  EXPECT_EQ(p(p.rows() - 1, 1), 3.0);
}

TEST(Box, ParseAndDiameter) {
  const auto b = Box::parse("0:3,0:4");
  EXPECT_DOUBLE_EQ(b.diameter(), 5.0);
  EXPECT_THROW(Box::parse("0:1,2:1"), InputError);
  EXPECT_THROW(Box::parse("a:b"), InputError);
}

TEST(Csv, ErrorsNameFileLineAndField) {
  auto expect_error = [](const std::string& text, const std::string& needle) {
    try {
      io::parse_csv(text, "d.csv").numeric({"x1", "y"});
      ADD_FAILURE() << "no error for: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error("", "d.csv: file is empty");
  expect_error("x1,y\n0.1,abc\n", "d.csv:2: column 'y': 'abc' is not a number");
  expect_error("x1,y\n0.1,1\n0.2,nan\n", "d.csv:3: column 'y'");
  expect_error("x1,y\n0.1,1\n0.2,inf\n", "not finite");
  expect_error("x1,y\n0.1,1,3\n", "d.csv:2: expected 2 fields");
  expect_error("x1,x1\n0.1,1\n", "duplicate header name 'x1'");
  expect_error("x1,z\n0.1,1\n", "no column named 'y'");
}

TEST(Csv, QuotedFieldsAndRoundTripNumbers) {
  const auto t = io::parse_csv("\"a\",\"b, c\"\n1,\"x \"\"q\"\"\"\n", "q.csv");
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.header[1], "b, c");
  EXPECT_EQ(t.rows[0][1], "x \"q\"");
  EXPECT_EQ(io::csv_field("b, c"), "\"b, c\"");
  EXPECT_EQ(std::stod(io::format_number(0.1 + 0.2)), 0.1 + 0.2);
}

// Uniforms: mean and variance of 2·10⁵ seeded draws within 5 standard errors (false alarm ~6e-7).
TEST(Rng, SeededUniformAndNormalMoments) {
  SeededRng rng(42);
  const int n = 200000;
  double s = 0, s2 = 0, z1 = 0, z2 = 0, z4 = 0;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform01();
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    s += u;
    s2 += u * u;
    const double z = rng.standard_normal();
    z1 += z;
    z2 += z * z;
    z4 += z * z * z * z;
  }
  EXPECT_NEAR(s / n, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  EXPECT_NEAR(s2 / n - std::pow(s / n, 2), 1.0 / 12, 5 * 0.0745 / std::sqrt(n));
  EXPECT_NEAR(z1 / n, 0.0, 5 / std::sqrt(n));
  EXPECT_NEAR(z2 / n, 1.0, 5 * std::sqrt(2.0 / n));
  EXPECT_NEAR(z4 / n, 3.0, 5 * std::sqrt(96.0 / n));
}

TEST(Rng, SeededIsReproducibleAndSecureIsLabelled) {
  SeededRng a(7), b(7);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(a.next_u64(), b.next_u64());
  EXPECT_NE(SeededRng(7).split(0).next_u64(), SeededRng(7).split(1).next_u64());
  SecureRng s;
  EXPECT_TRUE(s.is_secure());
  EXPECT_FALSE(a.is_secure());
  EXPECT_NE(a.description().find("NOT private"), std::string::npos);
  EXPECT_NE(s.next_u64(), s.next_u64());
}

// The hole-free uniform reaches far below 2^-53: over 2^20 draws, the smallest is below 2^-19
// with probability 1 − e^{-2} and values below 2^-53 are possible; check the exponent logic by
// counting draws under 2^-10 (expected 1024, sd 32).
TEST(Rng, UniformHasNoHolesNearZero) {
  SeededRng rng(3);
  int below = 0;
  double smallest = 1.0;
  for (int i = 0; i < (1 << 20); ++i) {
    const double u = rng.uniform01();
    below += u < std::ldexp(1.0, -10);
    smallest = std::min(smallest, u);
    // A value from the usual 53-bit construction is a multiple of 2^-53; ours need not be.
  }
  EXPECT_NEAR(below, 1024, 5 * 32);
  EXPECT_LT(smallest, std::ldexp(1.0, -15));
  EXPECT_NE(std::fmod(smallest, std::ldexp(1.0, -53)), 0.0);
}

}  // namespace
}  // namespace gpdp
