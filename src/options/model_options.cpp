#include "model_options.hpp"

namespace gpdp::options {

std::vector<OptionSpec> kernel_options(const std::string& kernel, double ell) {
  return {option("--kernel", OptionType::Text, kernel,
                 "Covariance family: exp (exponential, any dimension), exp1d, se, matern32, "
                 "matern52, constant, diagonal"),
          option("--ell", OptionType::Real, real_json(ell),
                 "Lengthscale ℓ > 0 (public hyperparameter)")};
}

std::vector<OptionSpec> hyper_options(double r, double sigma, double eta) {
  return {
      option("--r", OptionType::Real, real_json(r),
             "Effective ridge r > 0, r² = λ²/σ² (larger = more private)"),
      option("--sigma", OptionType::Real, real_json(sigma), "Prior scale σ > 0: f ~ GP(0, σ² k)"),
      option("--eta", OptionType::Real, real_json(eta),
             "Added prior noise η ≥ 0: release f_D + g, g ~ GP(0, η² k)")};
}

std::vector<OptionSpec> concat(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace gpdp::options
