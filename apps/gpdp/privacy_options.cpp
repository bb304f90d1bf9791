#include "privacy_options.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

void add_mechanism_options(CLI::App* app, MechanismOptions& o) {
  const auto specs = options::mechanism_options(options::MechanismFlagSet::Full);
  add_spec_option(app, specs, "--n", o.n);
  add_spec_option(app, specs, "--dim", o.dim);
  add_spec_option(app, specs, "--domain", o.domain);
  add_spec_option(app, specs, "--kappa", o.kappa);
  add_spec_option(app, specs, "--M-Y", o.M_Y);
  add_spec_option(app, specs, "--sensitivity", o.sensitivity);
  add_spec_option(app, specs, "--rkhs-norm", o.rkhs_norm);
  add_spec_option(app, specs, "--Vn", o.Vn);
  add_spec_option(app, specs, "--Delta-n", o.Delta_n);
  add_spec_option(app, specs, "--mechanism", o.mechanism);
  add_spec_option(app, specs, "--noise-scale", o.noise_scale);
}

namespace {
// The flags' values with the kernel and θ of the shared groups.
options::MechanismFlags flags_of(MechanismOptions f, const KernelOptions& k,
                                 const HyperOptions& h) {
  f.kernel = k.kernel;
  f.ell = k.ell;
  f.r = h.r;
  f.sigma = h.sigma;
  f.eta = h.eta;
  return f;
}
}  // namespace

privacy::GpMechanism to_mechanism(const MechanismOptions& o, const KernelOptions& k,
                                  const HyperOptions& h) {
  return options::to_mechanism(flags_of(o, k, h));
}

void add_accounting_options(CLI::App* app, AccountingOptions& o) {
  const auto specs = options::accounting_options(o.draws, o.conversion);
  add_spec_option(app, specs, "--draws", o.draws);
  add_spec_option(app, specs, "--delta", o.delta);
  add_spec_option(app, specs, "--conversion", o.conversion);
}

privacy::Conversion to_conversion(const AccountingOptions& o) {
  require(o.draws >= 1, fmt::format("--draws must be ≥ 1, got {}", o.draws));
  require(o.delta > 0 && o.delta < 1, fmt::format("--delta must lie in (0, 1), got {}", o.delta));
  return privacy::parse_conversion(o.conversion);
}

}  // namespace gpdp::cli
