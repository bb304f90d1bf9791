#include "gpdp/attack/bound.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"

namespace gpdp::attack {

privacy::GpMechanism attack_mechanism(const ShadowSetting& setting, double r, double sigma) {
  privacy::GpMechanism m;
  m.kernel = setting.kernel;
  m.dim = 1;
  m.n = setting.n;
  m.r = r;
  m.sigma = sigma;
  m.M_Y = 1.0;  // |y| ≤ (1 − M_ξ) + M_ξ = 1 and y₀ = 1
  m.lemma = setting.kernel.family() == KernelFamily::Exponential ? privacy::SensitivityLemma::B7
                                                                 : privacy::SensitivityLemma::B1;
  return m;
}

privacy::Guarantee attack_guarantee(const ShadowSetting& setting, double r, double sigma, int draws,
                                    double delta, privacy::Conversion conversion) {
  require(draws >= 1, fmt::format("attack: the bound needs L ≥ 1 draws, got {}", draws));
  return privacy::account(attack_mechanism(setting, r, sigma), draws, delta, conversion);
}

}  // namespace gpdp::attack
