#pragma once
// Exact draws of the released path f_D (+ g) ~ GP(μ_D, (σ² k_D + η² k)) on finite point sets.
// Every method produces the same distribution (up to floating point); Auto picks the fastest
// exact one and Draws::method says which ran. The samplers know nothing about privacy.
#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>

#include "gpdp/grid.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"

namespace gpdp {

enum class SamplerMethod {
  Auto,    // Markov for the 1-D exponential kernel, Pathwise on large grids, else Dense
  Dense,   // factorise the m x m posterior covariance (pivoted / eigen for singular PSD)
  Markov,  // 1-D exponential kernel = Ornstein-Uhlenbeck: Kalman filter + backward sampling, O(n+m)
  Pathwise,  // Matheron's rule with an exact prior draw (circulant embedding on grids)
};

SamplerMethod parse_sampler_method(const std::string& name);  // auto|dense|markov|pathwise
std::string to_string(SamplerMethod method);

struct SampleOptions {
  SamplerMethod method = SamplerMethod::Auto;
  // Added independent prior noise g ~ GP(0, η² k) (paper eq. 5, App. A.1); 0 = none.
  double eta = 0.0;
};

struct Draws {
  Eigen::MatrixXd values;  // m x L: values(i, l) is draw l at point i
  std::string method;      // the exact method that produced them
  std::string detail;      // e.g. tolerance used for a singular covariance, embedding size
};

Draws sample(const Posterior& posterior, const Points& xs, int draws, Rng& rng,
             const SampleOptions& options = {});
// On a regular grid (point order as Grid::points()); enables circulant embedding.
Draws sample(const Posterior& posterior, const Grid& grid, int draws, Rng& rng,
             const SampleOptions& options = {});

class DenseSampler;     // gpdp/samplers/dense.hpp
class PathwiseSampler;  // gpdp/samplers/pathwise.hpp

// A sampler prepared once for many draws on the same points (the release's map mechanism,
// release/map_mechanism.hpp): the method is chosen as sample() chooses it, and the dense method's
// m x m factorisation is computed here, once. The covariance of the released path depends on the
// kernel, the covariates and θ only, so draw() also serves a posterior with the same kernel,
// covariates and θ but other responses (InputError otherwise). sample() is one prepared draw.
class PreparedSampler {
 public:
  PreparedSampler(const Posterior& posterior, const Points& xs, const SampleOptions& options = {});
  PreparedSampler(const Posterior& posterior, const Grid& grid, const SampleOptions& options = {});
  PreparedSampler(PreparedSampler&&) noexcept;
  ~PreparedSampler();

  // `draws` exact draws of the released path of `posterior` on the prepared points. Not reentrant
  // (the pathwise method draws in its own FFT buffers).
  Draws draw(const Posterior& posterior, int draws, Rng& rng) const;
  SamplerMethod method() const { return method_; }  // the method chosen (never Auto)

 private:
  void check_same_covariance(const Posterior& posterior) const;
  void choose_pathwise(const Posterior& posterior, const Grid& grid);
  Posterior prepared_;
  Points xs_;
  std::optional<Grid> grid_;
  SamplerMethod method_ = SamplerMethod::Dense;
  double eta_ = 0.0;
  std::string why_not_pathwise_;  // Auto on a grid that fell back to dense: why
  std::unique_ptr<DenseSampler> dense_;
  std::unique_ptr<PathwiseSampler> pathwise_;  // its set-up (embedding, off-lattice conditioning)
};

}  // namespace gpdp
