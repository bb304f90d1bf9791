#pragma once
// The auditor's objectives (internal): what a search maximises, as plain data (ObjectiveSpec, so
// that a search can run as a task elsewhere) and as functions of a pair (Objectives).
#include "audit_search.hpp"
#include "gpdp/auditor/audit_functional.hpp"
#include "gpdp/auditor/gaussian_divergence.hpp"
#include "gpdp/auditor/neighbour_pair.hpp"
#include "gpdp/auditor/pair_gradient.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::auditor {

// D_α at order alpha, the mean sensitivity ‖μ_D − μ_D'‖_{H−}, or the distance of the exact
// Gaussian mechanism a pair makes (exact only: the Subplex search).
struct ObjectiveSpec {
  enum class Kind { Divergence, Sensitivity, MeanDistance };
  Kind kind = Kind::Divergence;
  double alpha = 0.0;  // Divergence only
};

// The objectives of one mechanism: D_α (smooth stand-in and exact oracle) and the mean sensitivity
// (its square is the smooth objective, the norm the exact one).
struct Objectives {
  const privacy::GpMechanism& m;
  SmoothObjective divergence(double alpha) const {
    return [this, alpha](const NeighbourPair& p, PairGradient* g) {
      return renyi_divergence_with_gradient(*m.kernel, m.r, m.sigma, m.eta, p, alpha, g);
    };
  }
  ExactObjective divergence_oracle(double alpha) const {
    return [this, alpha](const NeighbourPair& p) {
      return m.kind == privacy::MechanismKind::Functional
                 ? functional_process_divergence(*m.kernel, m.r, m.noise_scale, p, alpha)
                 : pair_renyi_divergence(*m.kernel, m.r, m.sigma, m.eta, p, alpha);
    };
  }
  // The distance of the exact Gaussian mechanism a pair makes: same-covariate pairs, or every
  // pair for the functional mechanism (‖μ_D − μ_D'‖_H / s).
  ExactObjective mean_distance() const {
    return [this](const NeighbourPair& p) {
      return m.kind == privacy::MechanismKind::Functional
                 ? functional_rkhs_distance(*m.kernel, m.r, p) / m.noise_scale
                 : pair_mean_distance(*m.kernel, m.r, m.sigma, m.eta, p);
    };
  }
  SmoothObjective sensitivity() const {
    return [this](const NeighbourPair& p, PairGradient* g) {
      return squared_sensitivity_with_gradient(*m.kernel, m.r, p, g);
    };
  }
  ExactObjective sensitivity_oracle() const {
    return [this](const NeighbourPair& p) { return pair_sensitivity(*m.kernel, m.r, p); };
  }
  // By spec (MeanDistance has no smooth stand-in: InputError).
  SmoothObjective smooth(const ObjectiveSpec& spec) const;
  ExactObjective exact(const ObjectiveSpec& spec) const;
};

}  // namespace gpdp::auditor
