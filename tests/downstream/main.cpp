// A user's program on an installed gpdp: exact posterior draws (core) and the ε of releasing them
// (privacy layer), through find_package(gpdp) and gpdp::gpdp.
#include <cstdio>

#include "gpdp/posterior.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "gpdp/version.hpp"

int main() {
  gpdp::Points X(4, 1);
  X << 0.1, 0.4, 0.6, 0.9;
  Eigen::VectorXd y(4);
  y << -0.5, 0.2, 0.7, -0.1;
  const gpdp::Kernel kernel = gpdp::Kernel::exponential(0.3);
  const gpdp::Posterior posterior(kernel, X, y, {0.5, 1.0});
  gpdp::SeededRng rng(1);
  const gpdp::Draws draws = gpdp::sample(posterior, gpdp::Grid::parse("0:1:5"), 3, rng);

  gpdp::privacy::GpMechanism mechanism;
  mechanism.kernel = kernel;
  mechanism.n = 4;
  mechanism.r = 0.5;
  gpdp::privacy::Accountant accountant;
  accountant.add(gpdp::privacy::rdp_curve(mechanism), draws.values.cols());
  const auto guarantee = accountant.epsilon(1e-3, gpdp::privacy::Conversion::Mironov);
  std::printf("gpdp %s: %ld draws at %ld points, epsilon = %.4f\n", gpdp::kVersion,
              static_cast<long>(draws.values.cols()), static_cast<long>(draws.values.rows()),
              guarantee.epsilon);
  return 0;
}
