#include "gpdp/attack/gauss_hermite.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <map>
#include <mutex>

#include "gpdp/error.hpp"

namespace gpdp::attack {

namespace {
// Golub & Welsch (1969): the nodes are the eigenvalues of the Jacobi matrix of the monic Hermite
// recurrence (zero diagonal, off-diagonal √(k/2)); the weights are μ₀ v₀², μ₀ = ∫ e^{−x²} = √π.
GaussHermiteRule golub_welsch(int q) {
  Eigen::VectorXd diagonal = Eigen::VectorXd::Zero(q);
  Eigen::VectorXd off(std::max(q - 1, 0));
  for (int k = 1; k < q; ++k) off[k - 1] = std::sqrt(0.5 * k);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver;
  solver.computeFromTridiagonal(diagonal, off, Eigen::ComputeEigenvectors);
  if (solver.info() != Eigen::Success) {
    throw NumericalError(fmt::format("gauss_hermite: eigen-decomposition failed for Q = {}", q));
  }
  GaussHermiteRule rule;
  const double mu0 = std::sqrt(M_PI);
  for (int i = 0; i < q; ++i) {
    rule.nodes.push_back(solver.eigenvalues()[i]);
    const double v0 = solver.eigenvectors()(0, i);
    rule.weights.push_back(mu0 * v0 * v0);
  }
  return rule;
}
}  // namespace

const GaussHermiteRule& gauss_hermite(int points) {
  require(points >= 1 && points <= 200,
          fmt::format("gauss_hermite: number of nodes must be in [1, 200], got {}", points));
  static std::mutex mutex;
  static std::map<int, GaussHermiteRule> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(points);
  if (it == cache.end()) it = cache.emplace(points, golub_welsch(points)).first;
  return it->second;
}

}  // namespace gpdp::attack
