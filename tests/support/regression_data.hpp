#pragma once
// Small synthetic regression data sets for the sampler tests: X uniform on [0,1]^dim and
// y = signal(x₁) + noise_sd·N(0, 1), all from one seeded generator (deterministic per seed).
#include <Eigen/Dense>
#include <cstdint>

#include "gpdp/kernel.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::test {

struct RegressionData {
  Points X;
  Eigen::VectorXd y;
};

template <class Signal>
RegressionData make_regression_data(int n, int dim, std::uint64_t seed, Signal signal,
                                    double noise_sd) {
  SeededRng rng(seed);
  RegressionData d{Points(n, dim), Eigen::VectorXd(n)};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < dim; ++j) d.X(i, j) = rng.uniform01();
    d.y[i] = signal(d.X(i, 0)) + noise_sd * rng.standard_normal();
  }
  return d;
}

}  // namespace gpdp::test
