// The sampler dispatcher: method names, which exact method Auto picks, and explicit requests that
// cannot be honoured exactly are refused with a message (never a silent approximation).
#include <gtest/gtest.h>

#include "gpdp/error.hpp"
#include "gpdp/samplers/pathwise.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp {
namespace {

Posterior make_posterior(const Kernel& kern, int dim) {
  SeededRng rng(1);
  Points x(8, dim);
  Eigen::VectorXd y(8);
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < dim; ++j) x(i, j) = rng.uniform01();
    y[i] = rng.standard_normal();
  }
  return Posterior(kern, x, y, {0.3, 1.0});
}

TEST(SamplerDispatch, MethodNamesRoundTrip) {
  for (const auto m : {SamplerMethod::Auto, SamplerMethod::Dense, SamplerMethod::Markov,
                       SamplerMethod::Pathwise}) {
    EXPECT_EQ(parse_sampler_method(to_string(m)), m);
  }
  EXPECT_THROW(parse_sampler_method("cholesky"), InputError);
}

TEST(SamplerDispatch, AutoPicksMarkovForOneDimensionalExponential) {
  const Posterior post = make_posterior(Kernel::exponential(0.2), 1);
  SeededRng rng(2);
  Points xs(3, 1);
  xs << 0.1, 0.2, 0.3;
  EXPECT_EQ(sample(post, xs, 2, rng).method, "markov");
  EXPECT_EQ(sample(post, Grid::parse("0:1:50"), 2, rng).method, "markov");
  EXPECT_EQ(sample(post, xs, 2, rng, {SamplerMethod::Dense, 0.0}).method, "dense");
}

TEST(SamplerDispatch, AutoPicksDenseOtherwiseAndSaysWhyNotPathwise) {
  const Posterior post = make_posterior(Kernel::exponential(0.2), 2);
  SeededRng rng(2);
  const Draws small = sample(post, Grid::parse("0:1:5,0:1:5"), 1, rng);
  EXPECT_EQ(small.method, "dense");
  const Grid big = Grid::parse("0:1:40,0:1:40");
  const Draws d = sample(post, big, 1, rng);
  const std::string why = pathwise_unavailable_reason(post, big, 0.0);
  if (why.empty()) {
    EXPECT_EQ(d.method, "pathwise");
  } else {
    EXPECT_EQ(d.method, "dense");
    EXPECT_NE(d.detail.find(why), std::string::npos) << d.detail;
  }
  EXPECT_EQ(d.values.rows(), 1600);
}

TEST(SamplerDispatch, AutoConditionsOffLatticeCovariatesWhenThatIsCheaper) {
  // 8 scattered covariates on a 40 x 40 grid: pathwise with the off-lattice set-up. 1000 of them
  // on a 32 x 32 grid: their n² M set-up costs more than the dense draw, which Auto then uses.
  const Posterior few = make_posterior(Kernel::exponential(0.2), 2);
  SeededRng rng(2);
  const Draws d = sample(few, Grid::parse("0:1:40,0:1:40"), 1, rng);
  EXPECT_EQ(d.method, "pathwise");
  EXPECT_NE(d.detail.find("8 off-lattice covariate(s)"), std::string::npos) << d.detail;
  Points x(1000, 2);
  for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = rng.uniform01();
  const Posterior many(Kernel::exponential(0.2), x, Eigen::VectorXd::Zero(1000), {0.3, 1.0});
  const Draws e = sample(many, Grid::parse("0:1:32,0:1:32"), 1, rng);
  EXPECT_EQ(e.method, "dense");
  EXPECT_NE(e.detail.find("more than this dense draw's"), std::string::npos) << e.detail;
}

TEST(SamplerDispatch, RefusesWhatItCannotDoExactly) {
  const Posterior se = make_posterior(Kernel::squared_exponential(0.2), 1);
  SeededRng rng(3);
  Points xs(2, 1);
  xs << 0.1, 0.2;
  EXPECT_THROW(sample(se, xs, 1, rng, {SamplerMethod::Markov, 0.0}), InputError);
  EXPECT_THROW(sample(se, xs, 1, rng, {SamplerMethod::Pathwise, 0.0}), InputError);
  const Grid grid = Grid::parse("0:1:16");
  if (!pathwise_unavailable_reason(se, grid, 0.0).empty()) {
    EXPECT_THROW(sample(se, grid, 1, rng, {SamplerMethod::Pathwise, 0.0}), InputError);
  }
  Points bad(1, 1);
  bad << std::nan("");
  EXPECT_THROW(sample(se, bad, 1, rng), InputError);
}

}  // namespace
}  // namespace gpdp
