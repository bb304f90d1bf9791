#include "gpdp/preview/candidates.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "gpdp/release/grid_mean.hpp"

namespace gpdp::preview {

namespace {

using privacy::CalibrationParameter;

Calibrated from(const privacy::Calibration& c, Family family) {
  return {family, c.mechanism, c.parameter, static_cast<int>(c.draws), c.achieved.epsilon};
}

}  // namespace

std::vector<Calibrated> calibrated_candidates(const privacy::GpMechanism& base,
                                              const privacy::CalibrationTarget& target,
                                              const CandidateGrid& grid,
                                              std::vector<std::string>& infeasible) {
  std::vector<Calibrated> out;
  // Tries one calibration; an infeasible target is recorded, not fatal.
  auto attempt = [&](const privacy::GpMechanism& m, long draws, CalibrationParameter what,
                     Family family, const std::string& name) {
    try {
      out.push_back(from(privacy::calibrate(m, draws, what, target), family));
      return true;
    } catch (const PrivacyError& e) {
      infeasible.push_back(fmt::format("{}: {}", name, e.what()));
      return false;
    }
  };
  double r_single = 0.0;
  for (const int L : grid.draws) {
    const Family family = L == 1 ? Family::Default : Family::Vote;
    if (attempt(base, L, CalibrationParameter::R, family, fmt::format("r-calibrated, L = {}", L)) &&
        L == 1) {
      r_single = out.back().mechanism.r;
    }
  }
  if (r_single > 0) {
    for (const double f : grid.eta_ridge_factors) {
      privacy::GpMechanism m = base;
      m.r = r_single * f;
      attempt(m, 1, CalibrationParameter::Eta, Family::Eta,
              fmt::format("η-calibrated at r = {:.4g}", m.r));
    }
  }
  for (const double f : grid.sigma_factors) {
    privacy::GpMechanism m = base;
    m.sigma = base.sigma * f;
    attempt(m, 1, CalibrationParameter::R, Family::SmallSigma,
            fmt::format("r-calibrated at σ = {:.4g}", m.sigma));
  }
  if (grid.prior_mean_fraction > 0) {
    // The prior mean alone gets its fraction of the target; r meets it with both composed.
    privacy::GpMechanism pm;
    pm.kind = privacy::MechanismKind::PriorMean;
    pm.n = base.n;
    pm.dim = base.dim;
    pm.M_Y = base.M_Y;
    pm.noise_scale = 1.0;
    privacy::CalibrationTarget share = target;
    share.epsilon = grid.prior_mean_fraction * target.epsilon;
    try {
      const auto mean = privacy::calibrate(pm, 1, CalibrationParameter::Noise, share);
      privacy::Accountant also;
      also.add(mean.mechanism, 1);
      const auto c = privacy::calibrate(base, 1, CalibrationParameter::R, target, also);
      Calibrated k = from(c, Family::PriorMean);
      k.prior_mean_fraction = grid.prior_mean_fraction;
      k.prior_mean_noise = mean.mechanism.noise_scale;
      out.push_back(k);
    } catch (const PrivacyError& e) {
      infeasible.push_back(fmt::format("private prior mean: {}", e.what()));
    }
  }
  if (grid.sign && attempt(base, 1, CalibrationParameter::R, Family::Sign, "sign-clipped"))
    out.back().sign = true;
  if (grid.grid_mean) {
    privacy::GpMechanism m = base;
    m.kind = privacy::MechanismKind::GridMean;
    m.noise_scale = 1.0;
    m.eta = 0.0;
    require(m.domain.has_value(), "preview: the grid mean needs the domain");
    m.cells = release::grid_mean_cells(*m.domain, m.n, target.epsilon).counts;
    attempt(m, 1, CalibrationParameter::Noise, Family::GridMean, "grid mean");
  }
  for (const double r : grid.functional_ridges) {
    privacy::GpMechanism m = base;
    m.kind = privacy::MechanismKind::Functional;
    m.r = r;
    m.eta = 0.0;
    attempt(m, 1, CalibrationParameter::Noise, Family::Functional,
            fmt::format("functional at r = {:.4g}", r));
  }
  return out;
}

}  // namespace gpdp::preview
