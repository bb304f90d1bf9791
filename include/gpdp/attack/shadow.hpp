#pragma once
// Shadow datasets of the membership-inference experiment (docs/mathematics.md §4, paper §4 and App.
// C):
//   x ~ U[0, 1],  y = (1 − M_ξ) f_step(x) + ξ,  ξ ~ U[−M_ξ, M_ξ],  f_step = −1 on x < ½, else 1;
//   target z₀ = (x₀, y₀) = (½, 1);  H_in: z₀ plus n − 1 random points;  H_out: n random points.
// The attacker only ever sees the release at x₀, so a shadow dataset is summarised by its
// posterior at x₀: μ_D(x₀) and the normalised variance k_D(x₀, x₀) (computed by gpdp::Posterior).
#include <vector>

#include "gpdp/kernel.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::attack {

struct ShadowSetting {
  long n = 10;         // dataset size |D|
  double noise = 0.0;  // M_ξ ∈ [0, 1)
  Kernel kernel = Kernel::exponential(1.0);
  double x0 = 0.5;
  double y0 = 1.0;
  void validate() const;  // InputError naming the field
};

enum class Hypothesis { In, Out };

// The step function f_step of the experiment.
double step_function(double x);

// One shadow dataset (X: n x 1, y) under the hypothesis; under In, z₀ is row 0.
struct ShadowDataset {
  Points X;
  Eigen::VectorXd y;
};
ShadowDataset draw_shadow_dataset(const ShadowSetting& setting, Hypothesis hypothesis, Rng& rng);

// μ_D(x₀) and k_D(x₀, x₀) (σ-free: the released value's variance is σ² k_D(x₀, x₀)).
struct TargetPosterior {
  double mean;
  double kd;
};
TargetPosterior target_posterior(const ShadowSetting& setting, const ShadowDataset& data, double r);

// `count` independent shadow datasets summarised at x₀.
std::vector<TargetPosterior> shadow_posteriors(const ShadowSetting& setting, Hypothesis hypothesis,
                                               double r, long count, Rng& rng);

}  // namespace gpdp::attack
