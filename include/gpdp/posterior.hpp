#pragma once
// The GP posterior Π_D = GP(μ_D, σ² k_D) of docs/mathematics.md §1:
//   μ_D(x)     = k_X(x)ᵀ (K + r² I)⁻¹ y
//   k_D(x, x') = k(x, x') − k_X(x)ᵀ (K + r² I)⁻¹ k_X(x')
// K + r² I is factorised (Cholesky; r > 0 makes it positive definite even with duplicate
// covariates) LAZILY: on the first query that needs it, once, thread-safely, and then reused by
// every query and sampler. With the 1-D exponential kernel (Ornstein–Uhlenbeck, Lemma B.6) mean,
// variance, excursion probability, d_eff and the weights come from an O(n) state-space engine
// (ornstein_uhlenbeck.hpp) and the n x n factorisation is never formed unless covariance(),
// cross_covariance() or factor() is asked for.
#include <Eigen/Core>
#include <memory>

#include "gpdp/factorisation.hpp"
#include "gpdp/kernel.hpp"

namespace gpdp {

class OrnsteinUhlenbeckPosterior;  // gpdp/ornstein_uhlenbeck.hpp

// θ = (ℓ, r, σ): ℓ lives in the Kernel; r is the effective ridge (r² = λ²/σ²); σ the prior scale.
struct Hyperparameters {
  double r;
  double sigma;
};

class Posterior {
 public:
  Posterior(Kernel kernel, Points X, Eigen::VectorXd y, Hyperparameters theta);
  // With known heteroscedastic noise: observation i has noise variance σ² r² w_i (every w_i > 0
  // and finite; empty w: all 1), i.e. K + r² I becomes K + r² diag(w) everywhere below (the grid
  // mean's post-processing GP, release/grid_mean.hpp). With w given, the O(n) Markov engine and the
  // pathwise sampler are not used: every query and draw is dense.
  Posterior(Kernel kernel, Points X, Eigen::VectorXd y, Hyperparameters theta,
            Eigen::VectorXd noise_weights);

  const Kernel& kernel() const { return kernel_; }
  const Points& X() const { return X_; }
  const Eigen::VectorXd& y() const { return y_; }
  double r() const { return theta_.r; }
  double sigma() const { return theta_.sigma; }
  // The noise weights w (empty: homoscedastic, every w_i = 1).
  const Eigen::VectorXd& noise_weights() const { return noise_weights_; }
  Eigen::Index n() const { return X_.rows(); }
  int dim() const { return static_cast<int>(X_.cols()); }

  // The same kernel, covariates, θ and noise with other responses: shares this posterior's
  // factorisation of K + r² I (computed once for both), so only the weights are new (O(n²)).
  Posterior with_responses(Eigen::VectorXd y) const;

  // (K + r² I)⁻¹ y, the representer weights of μ_D (O(n) for the 1-D exponential kernel).
  const Eigen::VectorXd& weights() const;
  // Cholesky factor of K + r² I (computed on first call: O(n³) time, n² memory), on the device
  // factor_device() selects (gpdp/factorisation.hpp).
  const CholeskyFactor& factor() const;
  // Whether factor() has been computed (the 1-D exponential kernel avoids it for mean/variance).
  bool has_dense_factor() const;
  // Bytes factor() still has to allocate (K + r² I, factorised in place: n² doubles; 0 once built).
  // Every dense query checks it, with its own n x m and m x m work, against available_memory()
  // (gpdp/memory.hpp) and throws ResourceError before allocating when it does not fit.
  double pending_factor_bytes() const;
  // The O(n) Kalman engine when the kernel is exponential in 1-D, else nullptr.
  const OrnsteinUhlenbeckPosterior* markov() const { return markov_.get(); }

  // InputError unless the query points xs have dim() coordinates (every query checks this).
  void check_query(const Points& xs) const;

  Eigen::VectorXd mean(const Points& xs) const;
  // Pointwise σ² k_D(x, x): the variance of the released path at each point.
  Eigen::VectorXd variance(const Points& xs) const;
  // σ² k_D(xs, xs): the joint covariance of the released path on xs.
  Eigen::MatrixXd covariance(const Points& xs) const;
  // σ² k_D(a, b).
  Eigen::MatrixXd cross_covariance(const Points& a, const Points& b) const;
  // p_D(x) = Φ((μ_D(x) − t) / (σ √k_D(x,x))); where k_D(x,x) = 0 it is 1{μ_D(x) ≥ t}.
  Eigen::VectorXd excursion_probability(const Points& xs, double threshold) const;
  // d_eff = tr(K (K + r² I)⁻¹) (O(n) for the 1-D exponential kernel: Σ_i k_D(x_i, x_i) / r²).
  double effective_dimension() const;

 private:
  struct Dense;    // the lazily computed factorisation; shared by copies (immutable once built)
  struct Weights;  // (K + r² I)⁻¹ y, lazily, per responses
  const Dense& dense() const;
  Kernel kernel_;
  Points X_;
  Eigen::VectorXd y_;
  Hyperparameters theta_;
  Eigen::VectorXd noise_weights_;
  std::shared_ptr<Dense> dense_;
  std::shared_ptr<Weights> weights_;
  std::shared_ptr<const OrnsteinUhlenbeckPosterior> markov_;
};

}  // namespace gpdp
