#include "gpdp/posteriors/distances.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "gpdp/error.hpp"
#include "gpdp/memory.hpp"

namespace gpdp {

PairwiseDistances::PairwiseDistances(const Points& X, const Points& xs) {
  require(xs.cols() == X.cols(),
          "pairwise distances: evaluation points and covariates differ in dimension");
  const auto n = static_cast<double>(X.rows()), m = static_cast<double>(xs.rows());
  // Peak, at most: the n x n block, and the squares and square roots of the larger block.
  require_memory(static_cast<double>(dense_bytes(n, n) + dense_bytes(std::max(n, m), n, 2)),
                 fmt::format("pairwise distances of n = {} covariates and m = {} evaluation points",
                             X.rows(), xs.rows()),
                 "n x n and m x n matrices of doubles");
  auto distances = [&](const Points& a) {
    Eigen::MatrixXd d2 = Eigen::MatrixXd::Zero(a.rows(), X.rows());
    for (Eigen::Index c = 0; c < X.cols(); ++c) {
      d2.array() += (a.col(c).replicate(1, X.rows()) - X.col(c).transpose().replicate(a.rows(), 1))
                        .array()
                        .square();
    }
    return Eigen::MatrixXd(d2.cwiseSqrt());
  };
  train = distances(X);
  cross = distances(xs);
}

void PairwiseDistances::check_responses(const Eigen::VectorXd& y, const char* engine) const {
  require(n() >= 1 && n() == y.size(),
          fmt::format("{}: need n ≥ 1 covariates and as many responses (got {} and {})", engine,
                      n(), y.size()));
}

void PairwiseDistances::kernel_matrices(const Kernel& kernel, Eigen::MatrixXd& gram,
                                        Eigen::MatrixXd& gram_cross) const {
  kernel.of_distances(train, gram);
  kernel.of_distances(cross, gram_cross);
}

}  // namespace gpdp
