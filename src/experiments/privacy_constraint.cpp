#include "gpdp/experiments/privacy_constraint.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::experiments {

privacy::SensitivityLemma ExcursionPrivacy::sensitivity() const {
  if (lemma) return *lemma;
  return dim == 1 ? privacy::SensitivityLemma::B7 : privacy::SensitivityLemma::B1;
}

double ExcursionPrivacy::epsilon(const Theta& theta) const {
  privacy::GpMechanism m;
  m.kernel = Kernel::exponential(theta.ell);
  m.dim = dim;
  m.n = n;
  m.r = theta.r;
  m.sigma = theta.sigma;
  m.M_Y = M_Y;
  m.lemma = sensitivity();
  const double eps = privacy::account(m, paths, delta, conversion).epsilon;
  return std::isfinite(eps) ? eps : std::numeric_limits<double>::infinity();
}

namespace {
std::string lemma_label(privacy::SensitivityLemma lemma) {
  switch (lemma) {
    case privacy::SensitivityLemma::B1Sharp:
      return "Lemma S.1 (b1-sharp)";
    default: {
      std::string name = privacy::to_string(lemma);  // "b7" -> "Lemma B.7"
      return "Lemma B." + name.substr(1);
    }
  }
}
}  // namespace

std::string ExcursionPrivacy::description() const {
  return fmt::format(
      "exponential kernel on [0,1]^{}, κ = exp(−{}/ℓ) (Proposition 3), Δ_n by {}, M_Y = {}, "
      "Theorem 3.1, n = {}, L = {} path(s) composed, δ = {}, conversion: {}",
      dim, dim == 1 ? "1" : fmt::format("√{}", dim), lemma_label(sensitivity()), M_Y, n, paths,
      delta, privacy::conversion_citation(conversion));
}

PrivacyConstraint ExcursionPrivacy::constraint(double epsilon_max) const {
  const ExcursionPrivacy copy = *this;
  return {[copy](const Theta& t) { return copy.epsilon(t); }, epsilon_max};
}

}  // namespace gpdp::experiments
