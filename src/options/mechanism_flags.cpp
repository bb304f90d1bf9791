#include "gpdp/options/mechanism_flags.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "gpdp/domain.hpp"
#include "gpdp/error.hpp"

namespace gpdp::options {

std::vector<OptionSpec> mechanism_options(MechanismFlagSet set) {
  const MechanismFlags d;
  const bool full = set == MechanismFlagSet::Full;
  std::vector<OptionSpec> specs;
  if (full) {
    specs.push_back(
        option("--n", OptionType::Integer, nullptr, "Dataset size n ≥ 1 (replace-one neighbours)")
            .as_required());
    specs.push_back(option("--dim", OptionType::Integer, d.dim, "Covariate dimension d"));
    specs.push_back(
        option("--domain", OptionType::Text, nullptr,
               "Covariate domain box lo:hi,... (default: the unit box [0,1]^d); sets κ"));
  }
  specs.push_back(option("--kappa", OptionType::Real, nullptr,
                         "Override κ = inf k(x,x') over the domain (in [0,1]; 0 is always safe)"));
  if (full) {
    specs.push_back(option("--M-Y", OptionType::Real, d.M_Y,
                           "Response bound |y| ≤ M_Y (data must be clipped to it)"));
  }
  specs.push_back(option(
      "--sensitivity", OptionType::Text, d.sensitivity,
      "Mean-sensitivity lemma: b1-sharp (generic, Lemma S.1, docs/proofs/b1-sharp.md; the "
      "default), b1 (generic, the paper's Lemma B.1), b4 (constant kernel), b5 (diagonal "
      "kernel), b7 (exponential kernel in 1-D only; refused in d ≥ 2, where it is false), b8 (RKHS "
      "responses, needs --rkhs-norm)"));
  specs.push_back(
      option("--rkhs-norm", OptionType::Real, nullptr, "B ≥ ‖f*‖_H for --sensitivity b8"));
  specs.push_back(option("--Vn", OptionType::Real, nullptr,
                         "A proven upper bound on V_n(r) (default: V̄_n, Proposition 3)"));
  specs.push_back(
      option("--Delta-n", OptionType::Real, nullptr,
             "A proven upper bound on Δ_n(r) (replaces --sensitivity; your proof, your risk)"));
  specs.push_back(
      option("--mechanism", OptionType::Text, d.mechanism,
             "posterior-sample (a GP posterior sample path, the paper's), "
             "functional (μ_D + s·g with g ~ GP(0, k), the classical functional "
             "Gaussian mechanism) or grid-mean (noisy clipped sums and counts on public "
             "cells, then a GP fitted to the cell means, or, gpdp release --grid-map cells, the "
             "cell means themselves: free post-processing)" +
                 std::string(full ? ""
                                  : "; gpdp release also takes auto: a private summary at "
                                    "--choose-fraction of --target-epsilon picks the candidate "
                                    "with the best simulated accuracy, the cost of choosing "
                                    "included (docs/utility.md)")));
  specs.push_back(option("--noise-scale", OptionType::Real, nullptr,
                         "s of the functional mechanism μ_D + s·g, or s_S of the grid mean's cell "
                         "sums (its counts get s_N = s_S/M_Y); in model units"));
  return specs;
}

std::vector<OptionSpec> accounting_options(long draws, const std::string& conversion) {
  return {option("--draws", OptionType::Integer, draws,
                 "Number L of released sample paths (RDP composes: L·ε_α)")
              .with_alias("-L"),
          option("--delta", OptionType::Real, nullptr, "δ of the (ε, δ) guarantee, 0 < δ < 1")
              .as_required(),
          option("--conversion", OptionType::Text, conversion,
                 "RDP→(ε,δ) conversion: cks (Canonne-Kamath-Steinke / Balle et al.; the default "
                 "everywhere, see docs/security.md) or mironov (the paper's, looser)")};
}

namespace {
// integer_or narrowed to T; a value outside T's range names its parameter.
template <class T>
T narrow_integer(const nlohmann::json& j, const std::string& key, T fallback) {
  const long long v = integer_or(j, key, fallback);
  const std::string parameter = parameter_of_flag(key);
  require_parameter(std::in_range<T>(v), parameter,
                    fmt::format("{} is out of range, got {}", parameter, v));
  return static_cast<T>(v);
}
}  // namespace

Accounting read_accounting(const nlohmann::json& request) {
  Accounting a;
  a.draws = narrow_integer(request, "draws", a.draws);
  a.delta = real_or(request, "delta", a.delta);
  require_parameter(a.draws >= 1, "draws", fmt::format("draws must be ≥ 1, got {}", a.draws));
  require_parameter(a.delta > 0 && a.delta < 1, "delta",
                    fmt::format("delta must lie in (0, 1), got {}", a.delta));
  if (request.contains("conversion"))
    a.conversion = privacy::parse_conversion(text_or(request, "conversion", ""));
  return a;
}

void read_mechanism_flags(const nlohmann::json& j, MechanismFlags& o) {
  o.kernel = text_or(j, "kernel", o.kernel);
  o.ell = real_or(j, "ell", o.ell);
  o.r = real_or(j, "r", o.r);
  o.sigma = real_or(j, "sigma", o.sigma);
  o.eta = real_or(j, "eta", o.eta);
  o.n = narrow_integer(j, "n", o.n);
  o.dim = narrow_integer(j, "dim", o.dim);
  o.domain = text_or(j, "domain", o.domain);
  o.kappa = real_or(j, "kappa", o.kappa);
  o.M_Y = real_or(j, "M-Y", o.M_Y);
  o.sensitivity = text_or(j, "sensitivity", o.sensitivity);
  o.rkhs_norm = real_or(j, "rkhs-norm", o.rkhs_norm);
  o.Vn = real_or(j, "Vn", o.Vn);
  o.Delta_n = real_or(j, "Delta-n", o.Delta_n);
  o.mechanism = text_or(j, "mechanism", o.mechanism);
  o.noise_scale = real_or(j, "noise-scale", o.noise_scale);
}

privacy::GpMechanism to_mechanism_parameters(const MechanismFlags& o) {
  privacy::GpMechanism m;
  require_parameter(std::isfinite(o.r) && o.r > 0, "r",
                    fmt::format("r must be positive, got {}", o.r));
  require_parameter(
      !std::isnan(o.sigma) && o.sigma > 0, "sigma",
      fmt::format("sigma must be positive (or inf for the covariance-only bound), got {}",
                  o.sigma));
  require_parameter(std::isfinite(o.eta) && o.eta >= 0, "eta",
                    fmt::format("eta must be ≥ 0, got {}", o.eta));
  m.kernel = Kernel::from_name(o.kernel, o.ell);
  if (!std::isnan(o.kappa)) {
    require_parameter(o.kappa >= 0 && o.kappa <= 1, "kappa",
                      fmt::format("kappa must lie in [0, 1], got {}", o.kappa));
    m.kappa = o.kappa;
  }
  m.r = o.r;
  m.sigma = o.sigma;
  m.eta = o.eta;
  if (!std::isnan(o.Vn)) {
    require_parameter(std::isfinite(o.Vn) && o.Vn >= 0, "Vn",
                      fmt::format("Vn must be ≥ 0, got {}", o.Vn));
    m.user_Vn = o.Vn;
  }
  if (!std::isnan(o.Delta_n)) {
    require_parameter(std::isfinite(o.Delta_n) && o.Delta_n >= 0, "Delta_n",
                      fmt::format("Delta_n must be ≥ 0, got {}", o.Delta_n));
    m.lemma = privacy::SensitivityLemma::User;
    m.user_Delta_n = o.Delta_n;
  } else {
    m.lemma = privacy::parse_sensitivity_lemma(o.sensitivity);
  }
  if (m.lemma == privacy::SensitivityLemma::B8) {
    if (!(o.rkhs_norm >= 0))
      throw ParameterError({"rkhs_norm", "sensitivity"},
                           "sensitivity b8 needs rkhs_norm B (a bound on ‖f*‖_H)");
  }
  m.rkhs_norm = o.rkhs_norm;
  m.kind = privacy::parse_mechanism_kind(o.mechanism);
  if (privacy::has_noise_scale(m.kind)) {
    if (std::isnan(o.noise_scale))
      throw ParameterError({"noise_scale", "mechanism"},
                           fmt::format("mechanism {} needs noise_scale s", to_string(m.kind)));
    m.noise_scale = o.noise_scale;
  } else {
    if (!std::isnan(o.noise_scale))
      throw ParameterError({"noise_scale", "mechanism"},
                           "noise_scale belongs to mechanism functional or grid-mean");
  }
  return m;
}

privacy::GpMechanism to_mechanism(const MechanismFlags& o) {
  require_parameter(o.n >= 1, "n", fmt::format("n must be ≥ 1, got {}", o.n));
  require_parameter(o.dim >= 1, "dim", fmt::format("dim must be ≥ 1, got {}", o.dim));
  require_parameter(std::isfinite(o.M_Y) && o.M_Y > 0, "M_Y",
                    fmt::format("M_Y must be positive, got {}", o.M_Y));
  if (o.kernel == "exp1d" && o.dim != 1)
    throw ParameterError({"kernel", "dim"},
                         fmt::format("kernel exp1d needs dim 1, got dim {}", o.dim));
  privacy::GpMechanism m = to_mechanism_parameters(o);
  m.dim = o.dim;
  if (!o.domain.empty()) {
    m.domain = Box::parse(o.domain);
    if (m.domain->dim() != o.dim)
      throw ParameterError(
          {"domain", "dim"},
          fmt::format("domain has {} dimension(s) but dim is {}", m.domain->dim(), o.dim));
  }
  m.n = o.n;
  m.M_Y = o.M_Y;
  privacy::resolve_bounds(m);  // every remaining check, with the lemma applicability
  return m;
}

std::string mechanism_parameters(const privacy::GpMechanism& m) {
  if (m.kind == privacy::MechanismKind::GridMean) {
    return fmt::format("grid mean, noise scales s_S = {:.10g} (sums), s_N = {:.10g} (counts)",
                       m.noise_scale, privacy::grid_mean_count_noise(m));
  }
  if (m.kind == privacy::MechanismKind::Functional) {
    return fmt::format("functional mechanism, r = {:.10g}, noise scale s = {:.10g}", m.r,
                       m.noise_scale);
  }
  return fmt::format("r = {:.10g}, sigma = {}, eta = {:.10g}", m.r, m.sigma, m.eta);
}

}  // namespace gpdp::options
