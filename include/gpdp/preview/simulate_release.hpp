#pragma once
// One simulation of the preview: a simulated private set and its shared random draws in, the
// utility of every candidate variant out. The released paths follow Matheron's rule exactly,
//   f_D = μ_r + σ (f − k(xs, X)(K + r² I)⁻¹ (f(X) + r e)) (+ η g),   f, g ~ GP(0, k), e ~ N(0, I),
// and the functional mechanism releases μ_r + s g; the same f, e, g serve every candidate (common
// random numbers). The released set of each variant is computed by the release's own
// post-processing (smoothing, vote) and compared with the non-private set {μ_{r_ref} ≥ t}.
#include <Eigen/Core>
#include <vector>

#include "gpdp/kernel.hpp"
#include "gpdp/posteriors/distances.hpp"
#include "gpdp/posteriors/ridge_cholesky.hpp"
#include "gpdp/preview/candidates.hpp"
#include "gpdp/preview/simulated_sets.hpp"

namespace gpdp::preview {

// A candidate with its post-processing: smoothing bandwidth and vote cutoff.
struct Variant {
  std::size_t epsilon = 0;    // index of the ε target
  std::size_t candidate = 0;  // index into that target's calibrated candidates
  double smooth = 0.0;
  double cutoff = 1.0;
  Family family = Family::Default;
};

// The smoothing bandwidths simulated: 0, then `nonzero` on a 2-D grid (the release smooths 2-D
// grids only).
std::vector<double> bandwidths_for(const EvaluationPoints& evaluation,
                                   const std::vector<double>& nonzero);

// Every (candidate, bandwidth, cutoff) in the order simulate_release() reports them, cutoffs
// k/L for k = 1..L.
std::vector<Variant> enumerate_variants(const std::vector<std::vector<Calibrated>>& candidates,
                                        const std::vector<double>& bandwidths);

struct SimulationDraws {
  Eigen::MatrixXd prior;    // m x (L_max + 1): unit prior fields f_1..f_Lmax, then g
  Eigen::MatrixXd noise;    // n x L_max standard normals e_l
  Eigen::VectorXd normals;  // the prior mean's normal, then the grid mean's 2 C (sums, counts)
};

// A simulated set's posterior at any ridge r (σ-free): k(xs, X) once, one Cholesky of K + r² I per
// call, Matheron's rule for the paths.
class SimulatedPosterior {
 public:
  SimulatedPosterior(const Kernel& kernel, const EvaluationPoints& evaluation,
                     const SimulatedSet& set, const SimulationDraws& draws);
  SimulatedPosterior(const SimulatedPosterior&) = delete;  // ridge_ refers to distances_
  SimulatedPosterior& operator=(const SimulatedPosterior&) = delete;
  // Columns: μ_r on the evaluation points (of the responses `y`; empty: the set's), then
  // k(xs, X)(K + r² I)⁻¹ (f_l(X) + r e_l), l < paths.
  Eigen::MatrixXd solve(double r, int paths, const Eigen::VectorXd& y = {});
  // L exact posterior paths of GP(μ_r, σ² k_r) (+ η g; η > 0 needs L = 1) from the shared draws,
  // of the responses `y` (empty: the set's).
  Eigen::MatrixXd paths(double r, double sigma, double eta, int L, const Eigen::VectorXd& y = {});
  // The independent unit prior field g (the last column of the shared prior draws).
  Eigen::VectorXd extra() const;

 private:
  const SimulatedSet& set_;
  const SimulationDraws& draws_;
  PairwiseDistances distances_;  // the simulated covariates X and the evaluation points
  RidgeCholesky ridge_;          // on distances_ and set.y
};

struct SimulationContext {
  const EvaluationPoints& evaluation;
  const Kernel& kernel;
  double level;        // threshold in model units
  double sigma;        // prior scale of the posterior-sample candidates and the reference
  double r_reference;  // ridge of the non-private reference posterior
  const std::vector<std::vector<Calibrated>>& candidates;
  const std::vector<double>& bandwidths;  // bandwidths_for(...)
  const std::vector<Variant>& variants;   // enumerate_variants(candidates, bandwidths)
};

struct SimulationOutcome {
  Eigen::VectorXd iou;           // per variant
  Eigen::VectorXd bce;           // per variant; NaN where undefined (one path, functional)
  double reference_share = 0.0;  // area share of {μ_{r_ref} ≥ t}: the chance level
  double nonprivate_iou = 0.0;   // one non-private posterior path at r_ref
};

SimulationOutcome simulate_release(const SimulationContext& context, const SimulatedSet& set,
                                   const SimulationDraws& draws);

}  // namespace gpdp::preview
