#pragma once
// The preview's candidate mechanisms at one ε target, each calibrated by the project's accountant
// (privacy/calibrate.hpp) so that its ε(δ) ≤ the target; post-processing (smoothing bandwidth,
// vote cutoff) is varied on top of them by the simulations.
#include <string>
#include <vector>

#include "gpdp/preview/preview.hpp"

namespace gpdp::preview {

struct Calibrated {
  Family family = Family::Default;  // Default (L = 1), Vote (L > 1), Eta, Functional, ...
  privacy::GpMechanism mechanism;   // the grid mean: with its cells (grid_mean_cells at the target)
  privacy::CalibrationParameter solved = privacy::CalibrationParameter::R;
  int draws = 1;
  double epsilon = 0.0;              // achieved ε(δ) (with a prior mean: of the composition)
  double prior_mean_fraction = 0.0;  // PriorMean: its share of the target
  double prior_mean_noise = 0.0;     // PriorMean: the calibrated noise s of the mean
  bool sign = false;                 // Sign: the sign-clipped responses
};

struct CandidateGrid {
  std::vector<int> draws;                 // L of the r-calibrated family (1 = default)
  std::vector<double> eta_ridge_factors;  // η-calibrated at r = r(ε, L = 1) × factor
  std::vector<double> functional_ridges;  // r of the functional mechanism
  std::vector<double> sigma_factors;      // r-calibrated at σ × factor (small σ)
  double prior_mean_fraction = 0.0;       // > 0: r-calibrated with a private prior mean
  bool grid_mean = false;                 // the grid mean, s calibrated, default cells
  bool sign = false;                      // r-calibrated on the sign-clipped responses
};

// `base` is a posterior-sample mechanism with everything but r, η set (kernel, dim, domain, n, σ,
// M_Y, lemma). Candidates that cannot meet the target are left out and named in `infeasible`.
std::vector<Calibrated> calibrated_candidates(const privacy::GpMechanism& base,
                                              const privacy::CalibrationTarget& target,
                                              const CandidateGrid& grid,
                                              std::vector<std::string>& infeasible);

}  // namespace gpdp::preview
