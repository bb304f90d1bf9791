#pragma once
// A command's options as data: the one definition that both front ends read. apps/gpdp turns a
// command's list into CLI11 options (apps/gpdp/spec_options.hpp),
// python/gpdp/distributed/options.py into argparse arguments (through gpdp._core.command_options).
// Both hand the values given, as text, to parse_options, which types them and builds the command's
// JSON request (keys: the options' request keys) — so the same argv makes the same request
// whichever front end parses it, and the request structs are built from that JSON only (e.g.
// attack::attack_request_from_json).
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gpdp::options {

enum class OptionType {
  Flag,      // present or not: true when given
  Integer,   // a whole number (64-bit)
  Real,      // a floating-point number; inf allowed (written "inf" in the request)
  Text,      // any text
  RealList,  // reals, comma-separated and/or repeated
  TextList,  // texts, comma-separated and/or repeated
};

// Where an option belongs: the driver's request (both front ends), or the front end itself
// (progress, output): in both front ends (FrontEnd) or in the CLI only (Cli: e.g. --threads; the
// Python front end has --scheduler instead).
enum class OptionScope { Request, FrontEnd, Cli };

struct OptionSpec {
  // The long flag with its dashes, e.g. "--roc-csv"; a positional argument's name, without them
  // ("path": the CLI's `gpdp query PATH`; as_positional()).
  std::string flag;
  std::string alias;  // a short alias ("-L") or empty
  OptionType type = OptionType::Text;
  nlohmann::json default_value;  // null: no default (the option is absent unless given)
  bool required = false;
  std::string help;
  std::string key;  // the request key; empty: the flag without its leading dashes
  // The parameter as library errors name it (gpdp::Error::parameters()); empty: the request key
  // with '_' for '-' ("target-epsilon" -> "target_epsilon"). Options that set one library
  // parameter together share it (--grid, --grid2d and --points: "evaluation").
  std::string parameter;
  OptionScope scope = OptionScope::Request;
  bool positional = false;  // given by its place on the command line, not by a flag

  // Copies with one field changed, for lists written as data:
  //   option("--draws", OptionType::Integer, 1, "...").with_alias("-L")
  OptionSpec with_alias(std::string short_alias) const;
  OptionSpec with_key(std::string request_key) const;
  OptionSpec with_parameter(std::string parameter_name) const;
  OptionSpec as_required() const;
  OptionSpec in_scope(OptionScope where) const;
  OptionSpec as_positional() const;
};

// An optional request option (no alias, request key = the flag without its dashes).
OptionSpec option(std::string flag, OptionType type, nlohmann::json default_value,
                  std::string help);

// A real as a request carries it: a JSON number, or "inf" / "-inf" (JSON has no infinity); and
// back (a number or one of those strings, else InputError).
nlohmann::json real_json(double value);
double real_from_json(const nlohmann::json& value);

// j[key] as a real (real_from_json) if present, else `fallback`; a value of another type is a
// ParameterError naming the key's parameter ("M-Y" -> M_Y: "M_Y: expected a number, got true").
double real_or(const nlohmann::json& j, const std::string& key, double fallback);
// The same for a text and a whole number (a hand-written request's wrong type named, not the JSON
// library's type error).
std::string text_or(const nlohmann::json& j, const std::string& key, const std::string& fallback);
long long integer_or(const nlohmann::json& j, const std::string& key, long long fallback);

// Checks that a request is a JSON object whose keys are all request keys of `specs`; InputError
// "<command>: unknown parameter 'k'" otherwise.
void check_request_keys(const std::vector<OptionSpec>& specs, const nlohmann::json& request,
                        const std::string& command);

// The request with the default of each Request option it does not give (a reader's view of a
// request that holds only the options given: RequestDefaults::Omitted).
nlohmann::json with_defaults(const std::vector<OptionSpec>& specs, nlohmann::json request);

// The request key (spec.key, or the flag without its leading dashes).
std::string key_of(const OptionSpec& spec);
// The parameter errors name (spec.parameter, or the request key with '_' for '-').
std::string parameter_of(const OptionSpec& spec);
// A flag's parameter when no spec declares one: "--target-epsilon" -> "target_epsilon".
std::string parameter_of_flag(const std::string& flag);
// "INT", "REAL", "TEXT", "REAL,..." ... ("" for a flag): the value's name in --help.
std::string type_name(OptionType type);
std::string to_string(OptionType type);    // "flag", "integer", "real", "text", "real-list", ...
std::string to_string(OptionScope scope);  // "request", "front-end", "cli"
// The default as --help shows it ("" when there is none or for a flag).
std::string default_text(const OptionSpec& spec);

// The typed JSON value of one option from the texts given for it (a flag: none; a scalar: the
// last one given; a list: every text, each split at commas). InputError naming the flag when a
// text is not of the option's type.
nlohmann::json parse_value(const OptionSpec& spec, const std::vector<std::string>& texts);

// The options given on a command line: (long flag, texts), in any order.
using GivenOptions = std::vector<std::pair<std::string, std::vector<std::string>>>;

struct ParsedOptions {
  nlohmann::json request;    // the Request options: defaults, then the values given
  nlohmann::json front_end;  // the FrontEnd and Cli options, likewise
};
// Whether the request gets the defaults of the options not given (the front-end options always
// do): Written, or Omitted for a request whose reader must know what was given (gpdp release:
// release/request_from_json.hpp applies the defaults itself).
enum class RequestDefaults { Written, Omitted };
// Every option's value (its default unless given), typed, keyed by request key, split by scope.
// InputError naming the flag for an unknown flag, a malformed value or a required option missing.
ParsedOptions parse_options(const std::vector<OptionSpec>& specs, const GivenOptions& given,
                            RequestDefaults defaults = RequestDefaults::Written);

// A spec as JSON {"flag", "alias", "type", "default", "default_text", "required", "help", "key",
// "parameter", "scope", "positional"} (what gpdp._core.command_options returns, one dict per
// option).
nlohmann::json to_json(const OptionSpec& spec);

}  // namespace gpdp::options
