#pragma once
// Flags that describe a GP release to the privacy accountant (docs/mathematics.md §2), for gpdp
// account (their names, help and checks are the library's: options/mechanism_flags.hpp, which
// gpdp calibrate's and gpdp-lab audit's options tables use directly). The kernel (--kernel/--ell)
// and θ (--r/--sigma/--eta) come from the shared groups in options.hpp; this adds what only the
// accountant needs. Usage:
//   KernelOptions k; HyperOptions h; MechanismOptions m; AccountingOptions a;
//   add_kernel_options(sub, k); add_hyper_options(sub, h);
//   add_mechanism_options(sub, m);
//   add_accounting_options(sub, a);
//   ... after parsing: privacy::GpMechanism mech = to_mechanism(m, k, h);
#include <CLI/CLI.hpp>
#include <limits>
#include <string>

#include "gpdp/options/mechanism_flags.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "options.hpp"

namespace gpdp::cli {

// The mechanism flags' values: the library's struct (privacy/mechanism_flags.hpp), so the two
// cannot drift. Its kernel and θ fields are not bound to flags here (KernelOptions and HyperOptions
// hold those); to_mechanism and to_mechanism_parameters fill them in.
using MechanismOptions = options::MechanismFlags;
// Every flag that describes the mechanism (account: options::mechanism_options' Full set; gpdp
// calibrate and gpdp release add theirs from their options tables).
void add_mechanism_options(CLI::App* app, MechanismOptions& o);
// The whole mechanism (with n, dim, domain, M_Y), validated (InputError naming the flag;
// PrivacyError when the lemma does not apply to the kernel). σ = inf is allowed here
// (covariance-only bound); a release refuses it itself.
privacy::GpMechanism to_mechanism(const MechanismOptions& o, const KernelOptions& k,
                                  const HyperOptions& h);

using options::mechanism_parameters;

struct AccountingOptions {
  long draws = 1;                                           // --draws L
  double delta = std::numeric_limits<double>::quiet_NaN();  // --delta (required)
  std::string conversion = "cks";                           // --conversion cks|mironov
};
void add_accounting_options(CLI::App* app, AccountingOptions& o);
// Checks L ≥ 1 and 0 < δ < 1; returns the conversion.
privacy::Conversion to_conversion(const AccountingOptions& o);

}  // namespace gpdp::cli
