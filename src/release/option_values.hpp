#pragma once
// Option values named like `gpdp release`'s flags without "--" (release_options.hpp), as JSON: a
// release request (request_from_json.hpp: the CLI's, a batch manifest's entry, Python's) and the
// options of a prepared release (prepared_release.hpp, Python gpdp.mechanisms.prepare). Typed reads
// whose errors name where the values come from and the option; and the one reader of a release's
// public parameters from them.
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/release/request.hpp"

namespace gpdp::release {

// How a message names an option: as the key in quotes ("'M-Y'", a manifest's spelling), or as
// the parameter the options table declares ("M_Y"), which each front end spells its own way (the
// CLI: "--M-Y").
enum class KeyNames { Quoted, Parameters };

class OptionValues {
 public:
  // `where` prefixes every message ("batch.json: releases[2] (dataset 'north')"; none when
  // empty); relative paths are relative to `base` (as given when empty).
  OptionValues(nlohmann::json values, std::string where, std::filesystem::path base = ".",
               KeyNames names = KeyNames::Quoted);

  // Messages name each key of `specs` by the parameter they declare for it (declared_values);
  // other keys by `gpdp release`'s table's ("out" -> "out_dir").
  void name_keys_by(const std::vector<options::OptionSpec>& specs);

  bool has(const std::string& key) const { return values_.contains(key); }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  const nlohmann::json& get(const std::string& key) const;  // "required" when absent
  std::string text(const std::string& key) const;
  double number(const std::string& key) const;  // a number, or "inf" / "-inf"
  long long integer(const std::string& key) const;
  std::uint64_t unsigned_integer(const std::string& key) const;
  bool flag(const std::string& key) const;  // false when absent
  std::string path(const std::string& key) const;
  std::vector<std::string> names(const std::string& key) const;  // "a,b" or ["a", "b"]
  std::vector<double> numbers(const std::string& key) const;
  // parse(text(key)); the library's error message prefixed by `where` and the key when names are
  // Quoted, as it is when they are Parameters (the library's message names what it parses, in its
  // own words and parameters).
  template <class Parse>
  auto parsed(const std::string& key, Parse parse) const {
    const std::string value = text(key);
    try {
      return parse(value);
    } catch (const Error& e) {
      if (names_ == KeyNames::Parameters) throw;
      fail(key, e.what());
    }
  }

 private:
  nlohmann::json values_;
  std::string where_;
  std::filesystem::path base_;
  KeyNames names_;
  std::map<std::string, std::string> parameters_;  // key -> parameter (name_keys_by)
};

// A declared command's request (options/option_spec.hpp: the keys of `specs`) as option values:
// its keys checked (InputError "<command>: unknown parameter 'k'"), the defaults of the options it
// does not give, messages naming parameters (what the readers of gpdp-lab curves, ops and
// reproduce and of gpdp hexbin read).
OptionValues declared_values(const std::vector<options::OptionSpec>& specs,
                             const nlohmann::json& request, const std::string& command,
                             std::filesystem::path base = "");

// The keys read_public_parameters() reads: the mechanism (kernel, ell, r, sigma, eta, sensitivity,
// kappa, Vn, Delta-n, rkhs-norm, mechanism, noise-scale), draws, delta, conversion,
// target-epsilon, solve, threshold, vote-cutoff, smooth, sampler, cells, prior-mean,
// snap-covariates.
const std::set<std::string>& public_parameter_keys();

// The public parameters of a release from its option values, over `q`'s: the mechanism of one
// draw, L, δ (required), the conversion, the calibration goal, the threshold (required), the vote
// cutoff, smoothing, the sampler and covariate snapping. Their ranges are checked by validate()
// and the accounting (privacy::resolve_bounds).
void read_public_parameters(const OptionValues& o, ReleaseRequest& q);

// The input description (input.hpp) of a command that reads the release's input options (config,
// x, y, domain, M-Y, response-policy, transform, center, scale, sign, crs, model-crs): the config
// file's (if any), then each option given on top of it, over `in`; the domain is required unless
// `require_domain` is false (gpdp ledger migrate only reads the records). gpdp release's, gpdp
// preview's and gpdp ledger migrate's readers share it (request_from_json.cpp).
void read_input(const OptionValues& o, InputSpec& in, bool require_domain = true);
// The evaluation points: exactly one of points, grid (1-D), grid2d, and mask (grid2d only).
EvaluationSpec read_evaluation(const OptionValues& o);

}  // namespace gpdp::release
