#include "privacy_options.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::cli {

void add_mechanism_options(CLI::App* app, MechanismOptions& o, MechanismFlags flags) {
  const bool full = flags == MechanismFlags::Full;
  if (full) {
    app->add_option("--n", o.n, "Dataset size n ≥ 1 (replace-one neighbours)")->required();
    app->add_option("--dim", o.dim, "Covariate dimension d")->capture_default_str();
    app->add_option("--domain", o.domain,
                    "Covariate domain box lo:hi,... (default: the unit box [0,1]^d); sets κ");
  }
  app->add_option("--kappa", o.kappa,
                  "Override κ = inf k(x,x') over the domain (in [0,1]; 0 is always safe)");
  if (full) {
    app->add_option("--M-Y", o.M_Y, "Response bound |y| ≤ M_Y (data must be clipped to it)")
        ->capture_default_str();
  }
  app->add_option(
         "--sensitivity", o.sensitivity,
         "Mean-sensitivity lemma: b1 (generic), b1-sharp (generic, Lemma S.1: sharper; not the "
         "default), b4 (constant kernel), b5 (diagonal kernel), "
         "b7 (exponential kernel in 1-D only; refused in d ≥ 2, where it is false), b8 (RKHS "
         "responses, needs --rkhs-norm)")
      ->capture_default_str();
  app->add_option("--rkhs-norm", o.rkhs_norm, "B ≥ ‖f*‖_H for --sensitivity b8");
  app->add_option("--Vn", o.Vn, "A proven upper bound on V_n(r) (default: V̄_n, Proposition 3)");
  app->add_option("--Delta-n", o.Delta_n,
                  "A proven upper bound on Δ_n(r) (replaces --sensitivity; your proof, your risk)");
  app->add_option("--mechanism", o.mechanism,
                  "posterior-sample (a GP posterior sample path, the paper's) or functional "
                  "(μ_D + s·g with g ~ GP(0, k), the classical functional Gaussian mechanism)")
      ->capture_default_str();
  app->add_option("--noise-scale", o.noise_scale,
                  "s of the functional mechanism μ_D + s·g (in model units)");
}

privacy::GpMechanism to_mechanism_parameters(const MechanismOptions& o, const KernelOptions& k,
                                             const HyperOptions& h) {
  privacy::GpMechanism m;
  require(std::isfinite(h.r) && h.r > 0, fmt::format("--r must be positive, got {}", h.r));
  require(!std::isnan(h.sigma) && h.sigma > 0,
          fmt::format("--sigma must be positive (or inf for the covariance-only bound), got {}",
                      h.sigma));
  require(std::isfinite(h.eta) && h.eta >= 0, fmt::format("--eta must be ≥ 0, got {}", h.eta));
  m.kernel = to_kernel(k);
  if (!std::isnan(o.kappa)) {
    require(o.kappa >= 0 && o.kappa <= 1,
            fmt::format("--kappa must lie in [0, 1], got {}", o.kappa));
    m.kappa = o.kappa;
  }
  m.r = h.r;
  m.sigma = h.sigma;
  m.eta = h.eta;
  if (!std::isnan(o.Vn)) {
    require(std::isfinite(o.Vn) && o.Vn >= 0, fmt::format("--Vn must be ≥ 0, got {}", o.Vn));
    m.user_Vn = o.Vn;
  }
  if (!std::isnan(o.Delta_n)) {
    require(std::isfinite(o.Delta_n) && o.Delta_n >= 0,
            fmt::format("--Delta-n must be ≥ 0, got {}", o.Delta_n));
    m.lemma = privacy::SensitivityLemma::User;
    m.user_Delta_n = o.Delta_n;
  } else {
    m.lemma = privacy::parse_sensitivity_lemma(o.sensitivity);
  }
  if (m.lemma == privacy::SensitivityLemma::B8) {
    require(o.rkhs_norm >= 0, "--sensitivity b8 needs --rkhs-norm B (a bound on ‖f*‖_H)");
  }
  m.rkhs_norm = o.rkhs_norm;
  m.kind = privacy::parse_mechanism_kind(o.mechanism);
  if (m.kind == privacy::MechanismKind::Functional) {
    require(!std::isnan(o.noise_scale), "--mechanism functional needs --noise-scale s");
    m.noise_scale = o.noise_scale;
  } else {
    require(std::isnan(o.noise_scale), "--noise-scale belongs to --mechanism functional");
  }
  return m;
}

privacy::GpMechanism to_mechanism(const MechanismOptions& o, const KernelOptions& k,
                                  const HyperOptions& h) {
  require(o.n >= 1, fmt::format("--n must be ≥ 1, got {}", o.n));
  require(o.dim >= 1, fmt::format("--dim must be ≥ 1, got {}", o.dim));
  require(std::isfinite(o.M_Y) && o.M_Y > 0, fmt::format("--M-Y must be positive, got {}", o.M_Y));
  require(k.kernel != "exp1d" || o.dim == 1,
          fmt::format("--kernel exp1d needs --dim 1, got --dim {}", o.dim));
  privacy::GpMechanism m = to_mechanism_parameters(o, k, h);
  m.dim = o.dim;
  if (!o.domain.empty()) {
    m.domain = Box::parse(o.domain);
    require(m.domain->dim() == o.dim,
            fmt::format("--domain has {} dimension(s) but --dim is {}", m.domain->dim(), o.dim));
  }
  m.n = o.n;
  m.M_Y = o.M_Y;
  privacy::resolve_bounds(m);  // every remaining check, with the lemma applicability
  return m;
}

std::string mechanism_parameters(const privacy::GpMechanism& m) {
  if (m.kind == privacy::MechanismKind::Functional) {
    return fmt::format("functional mechanism, r = {:.10g}, noise scale s = {:.10g}", m.r,
                       m.noise_scale);
  }
  return fmt::format("r = {:.10g}, sigma = {}, eta = {:.10g}", m.r, m.sigma, m.eta);
}

void add_accounting_options(CLI::App* app, AccountingOptions& o) {
  app->add_option("--draws,-L", o.draws, "Number L of released sample paths (RDP composes: L·ε_α)")
      ->capture_default_str();
  app->add_option("--delta", o.delta, "δ of the (ε, δ) guarantee, 0 < δ < 1")->required();
  app->add_option("--conversion", o.conversion,
                  "RDP→(ε,δ) conversion: cks (Canonne-Kamath-Steinke / Balle et al.; the default "
                  "everywhere, see docs/security.md) or mironov (the paper's, looser)")
      ->capture_default_str();
}

privacy::Conversion to_conversion(const AccountingOptions& o) {
  require(o.draws >= 1, fmt::format("--draws must be ≥ 1, got {}", o.draws));
  require(o.delta > 0 && o.delta < 1, fmt::format("--delta must lie in (0, 1), got {}", o.delta));
  return privacy::parse_conversion(o.conversion);
}

}  // namespace gpdp::cli
