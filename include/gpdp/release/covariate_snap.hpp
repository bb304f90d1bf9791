#pragma once
// Snapping the training covariates to a fine lattice before the posterior is formed (`gpdp release
// --snap-covariates F`, docs/grid-sampling.md "Snapping covariates"): each covariate is moved to
// the nearest node, inside the declared domain, of the release grid's lattice refined by an
// integer q_a per axis, so that the pathwise sampler draws exactly at grid speed. The released map
// is then the EXACT posterior of the snapped records (not of the records as parsed).
//
// The map is public and per record: q_a, the nodes and the clamping to the domain derive from F,
// ℓ, the grid and the declared domain only (never from the data), so neighbouring datasets stay
// neighbouring datasets in the domain and the privacy bound is unchanged (docs/privacy.md,
// "Snapped covariates"). q_a is the smallest integer whose worst case over the WHOLE domain is
// within F·ℓ/√d per axis (so every record moves at most F·ℓ in Euclidean norm).
#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/domain.hpp"
#include "gpdp/grid.hpp"

namespace gpdp::release {

// The public snapping map of one release.
struct CovariateSnapPlan {
  double fraction = 0.0;          // F: the largest displacement of a record, as a fraction of ℓ
  double ell = 0.0;               // the kernel's lengthscale ℓ
  double bound = 0.0;             // F·ℓ/√d: the largest displacement per axis
  std::vector<long> refinement;   // q_a
  std::vector<double> anchor;     // the grid's first node per axis (node k = anchor + k·h/q)
  std::vector<double> grid_step;  // h_a
  std::vector<long> first, last;  // the nodes inside the declared domain, per axis
  // The largest displacement on axis a of any point of the domain (≤ bound): half a lattice step,
  // or the gap between the domain's edge and its nearest node inside when that is larger.
  std::vector<double> worst;
  std::vector<std::string> names;  // the covariates' names, for messages

  int dim() const { return static_cast<int>(refinement.size()); }
  double lattice_step(int axis) const;
  double node(int axis, long k) const;
  // √(Σ worst_a²) ≤ F·ℓ: the largest displacement of any record, in Euclidean norm.
  double worst_displacement() const;
};

// The plan for F on this grid (the release's evaluation grid) and declared domain, q_a ≤
// max_refinement (the pathwise sampler's). ParameterError naming "snap_covariates" when F is not
// in (0, 1], the grid has a single point on an axis, or no q_a ≤ max_refinement meets F·ℓ/√d on
// some axis: the message names the q and lattice step that would, and the F that q =
// max_refinement allows.
CovariateSnapPlan plan_covariate_snap(double fraction, double ell, const Grid& grid,
                                      const Box& domain, long max_refinement,
                                      const std::vector<std::string>& names);

struct SnappedCovariates {
  Eigen::MatrixXd X;  // n x d, every row a node of the refined lattice inside the domain
  // The records' displacements |x'_i − x_i| (Euclidean): statistics of the PRIVATE covariates.
  double max_displacement = 0.0;
  double mean_displacement = 0.0;
};
// Each row of X (inside the domain) moved to its nearest in-domain node per axis. NumericalError
// if a displacement exceeded the plan's worst case (a bug, never expected).
SnappedCovariates snap_covariates(const CovariateSnapPlan& plan, const Eigen::MatrixXd& X);

// The certificate's "covariate_snapping" block: the option, q and the lattice step per axis, the
// public worst case, what the map is. Public inputs only: the measured displacements are
// statistics of the private covariates, not covered by ε, so they never enter the certificate.
nlohmann::json covariate_snap_json(const CovariateSnapPlan& plan);
// One phrase for the sampler line: "covariates snapped to lattice nodes (q = 1x1, …)".
std::string describe(const CovariateSnapPlan& plan);

}  // namespace gpdp::release
