#pragma once
// The multi-ridge interface (multi_ridge.hpp) served by one Posterior per ridge: for the 1-D
// exponential kernel the O(n + m) Markov engine (ornstein_uhlenbeck.hpp), otherwise a Cholesky of
// K + r² I and an n x m solve. Nothing is shared between ridges (reduces() is false).
#include <optional>

#include "gpdp/kernel.hpp"
#include "gpdp/posteriors/multi_ridge.hpp"

namespace gpdp {

class DirectPosterior final : public MultiRidgePosterior {
 public:
  // The data and evaluation points are referenced, not copied: they must outlive this object.
  DirectPosterior(const Points& X, const Eigen::VectorXd& y, const Points& xs);
  void refit(const Kernel& kernel) override;
  void moments(double r, Eigen::VectorXd& mean, Eigen::VectorXd& variance) override;
  bool reduces() const override { return false; }

 private:
  const Points& X_;
  const Eigen::VectorXd& y_;
  const Points& xs_;
  std::optional<Kernel> kernel_;
};

}  // namespace gpdp
