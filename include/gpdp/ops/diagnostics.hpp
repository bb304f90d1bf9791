#pragma once
// Multi-chain MCMC diagnostics (Gelman et al., Bayesian Data Analysis 3rd ed., §11.4–11.5).
#include <Eigen/Core>
#include <vector>

namespace gpdp::ops {

// Split-R̂ of one scalar quantity; chains[c] holds its draws in chain c (all the same length ≥ 4).
double split_rhat(const std::vector<Eigen::VectorXd>& chains);
// Effective sample size over all chains (BDA3 eq. 11.8, Geyer's initial positive sequence).
double effective_sample_size(const std::vector<Eigen::VectorXd>& chains);

struct ChainDiagnostics {
  double max_rhat = 0.0;  // worst coordinate
  double min_ess = 0.0;   // worst coordinate
};
// draws[c] is (iterations × d) for chain c.
ChainDiagnostics diagnose(const std::vector<Eigen::MatrixXd>& draws);

}  // namespace gpdp::ops
