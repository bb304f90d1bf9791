#pragma once
// A GP release described to the accountant by its options (gpdp account, calibrate, audit,
// release; python -m gpdp.distributed audit): the options as data (their one definition, with
// their help; options/option_spec.hpp), their values as plain data read from a request, and the
// validation into a GpMechanism, every error naming the option as its flag.
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/options/option_spec.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::options {

struct MechanismFlags {
  std::string kernel = "exp";  // --kernel
  double ell = 1.0;            // --ell
  double r = 1.0;              // --r
  double sigma = 1.0;          // --sigma (inf: covariance-only bound)
  double eta = 0.0;            // --eta
  long n = 0;                  // --n (required with the full set)
  int dim = 1;                 // --dim
  std::string domain;          // --domain lo:hi,...; empty = unit box [0,1]^dim
  double kappa = std::numeric_limits<double>::quiet_NaN();        // --kappa (NaN = from the kernel)
  double M_Y = 1.0;                                               // --M-Y
  std::string sensitivity = "b1-sharp";                           // --sensitivity
  double rkhs_norm = -1.0;                                        // --rkhs-norm (B.8)
  double Vn = std::numeric_limits<double>::quiet_NaN();           // --Vn (user-proven)
  double Delta_n = std::numeric_limits<double>::quiet_NaN();      // --Delta-n (user-proven)
  std::string mechanism = "posterior-sample";                     // --mechanism
  double noise_scale = std::numeric_limits<double>::quiet_NaN();  // --noise-scale (s, s_S)
};

// Which options describe the mechanism: all of them (account, calibrate, audit), or only those a
// release does not read from its data and input description.
enum class MechanismFlagSet { Full, FromData };
// Full: --n --dim --domain --kappa --M-Y --sensitivity --rkhs-norm --Vn --Delta-n --mechanism
// --noise-scale; FromData: --kappa --sensitivity --rkhs-norm --Vn --Delta-n --mechanism
// --noise-scale. (The kernel and θ: options::kernel_options, options::hyper_options.)
std::vector<OptionSpec> mechanism_options(MechanismFlagSet set);
// --draws/-L, --delta (required), --conversion.
std::vector<OptionSpec> accounting_options(long draws, const std::string& conversion);

// The accounting a request gives (keys draws, delta, conversion; absent: L = 1, δ = NaN, the
// default conversion, as account_options and calibrate_options declare), checked in this order:
// L ≥ 1, 0 < δ < 1 (ParameterError naming the parameter), the conversion's name.
struct Accounting {
  long draws = 1;
  double delta = std::numeric_limits<double>::quiet_NaN();
  privacy::Conversion conversion = privacy::kDefaultConversion;
};
Accounting read_accounting(const nlohmann::json& request);

// The values of the options above present in `request` (keys: the flags without "--"), over
// `into`'s.
void read_mechanism_flags(const nlohmann::json& request, MechanismFlags& into);

// The public parameters the options give (kind, kernel, θ, η or s, sensitivity lemma, κ / V_n /
// Δ_n / B overrides), validated one by one (ParameterError naming the parameter); n, dim, domain,
// M_Y unset.
privacy::GpMechanism to_mechanism_parameters(const MechanismFlags& o);
// The whole mechanism (with n, dim, domain, M_Y), validated (ParameterError naming the parameter;
// PrivacyError when the lemma does not apply to the kernel). σ = inf is allowed here
// (covariance-only bound); a release refuses it itself.
privacy::GpMechanism to_mechanism(const MechanismFlags& o);

// "r = .., sigma = .., eta = .." (posterior sample) or "r = .., noise scale s = .." (functional),
// for the text reports of account, calibrate and audit.
std::string mechanism_parameters(const privacy::GpMechanism& m);

}  // namespace gpdp::options
