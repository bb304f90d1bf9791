#pragma once
// The preview's candidate mechanisms at one ε target, each calibrated by the project's accountant
// (privacy/calibrate.hpp) so that its ε(δ) ≤ the target; post-processing (smoothing bandwidth,
// vote cutoff) is varied on top of them by the simulations.
#include <string>
#include <vector>

#include "gpdp/preview/preview.hpp"

namespace gpdp::preview {

struct Calibrated {
  Family family = Family::Default;  // Default (L = 1), Vote (L > 1), Eta or Functional
  privacy::GpMechanism mechanism;
  privacy::CalibrationParameter solved = privacy::CalibrationParameter::R;
  int draws = 1;
  double epsilon = 0.0;  // achieved ε(δ)
};

struct CandidateGrid {
  std::vector<int> draws;                 // L of the r-calibrated family (1 = default)
  std::vector<double> eta_ridge_factors;  // η-calibrated at r = r(ε, L = 1) × factor
  std::vector<double> functional_ridges;  // r of the functional mechanism
};

// `base` is a posterior-sample mechanism with everything but r, η set (kernel, dim, domain, n, σ,
// M_Y, lemma). Candidates that cannot meet the target are left out and named in `infeasible`.
std::vector<Calibrated> calibrated_candidates(const privacy::GpMechanism& base,
                                              const privacy::CalibrationTarget& target,
                                              const CandidateGrid& grid,
                                              std::vector<std::string>& infeasible);

}  // namespace gpdp::preview
