#pragma once
// A command whose options are data in the library (commands/command_options.hpp for gpdp's,
// lab/command_options.hpp for gpdp-lab's): adds them to its
// CLI11 subcommand (help, default, type, alias, required from the spec) and, after parsing, turns
// the values given into the command's request with options::parse_options — the same function
// `python -m gpdp.distributed` calls on what argparse collected, so both front ends build the same
// request from the same argv. Usage:
//   auto opts = std::make_shared<SpecOptions>(sub, lab::command_options("attack"));
//   sub->callback([opts] { const auto p = opts->parsed(); if (opts->print_request(p)) return; ...
//   });
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/options/option_spec.hpp"

namespace gpdp::cli {

// The library's errors name parameters (Error::parameters()); the CLI speaks in flags. Each option
// added from a spec keeps the spec's parameter (options::parameter_of); any other option's is its
// long flag read as a parameter ("--prior-sd" -> "prior_sd").
void remember_parameter(const CLI::Option* opt, const options::OptionSpec& spec);
// e.what() with each parameter it names (whole words) replaced by the flag(s) of the command that
// ran (`app` and its parsed subcommands) which set that parameter, joined by '/' when several do
// ("--points/--grid/--grid2d"), or by the one flag whose own name it is when no option declares
// it ("grid2d" -> "--grid2d"); a parameter no flag of the command sets is left as it is.
std::string with_flags(const Error& e, const CLI::App& app);

class SpecOptions {
 public:
  SpecOptions(CLI::App* app, std::vector<options::OptionSpec> specs);
  // The values given (defaults for the rest), typed, split into request and front-end options.
  options::ParsedOptions parsed(
      options::RequestDefaults defaults = options::RequestDefaults::Written) const;
  // The CLI11 option added for `flag` (to declare what it needs or excludes).
  CLI::Option* option(const std::string& flag) const;
  // With --print-request: prints the request (one JSON line) and returns true.
  static bool print_request(const options::ParsedOptions& parsed);
  // What a declared command prints: its report as indented JSON with --json, else its text.
  static void print_outcome(const options::ParsedOptions& parsed, const nlohmann::json& report,
                            const std::string& text);

 private:
  std::vector<options::OptionSpec> specs_;
  std::vector<CLI::Option*> added_;
};

// --points, --grid and --grid2d exclude one another (the parser refuses two of them and --help
// says so; the request's reader checks that one is given).
void declare_point_options(const SpecOptions& opts);

}  // namespace gpdp::cli
