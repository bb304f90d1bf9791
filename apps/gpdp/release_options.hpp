#pragma once
// The flag group of `gpdp release` that gpdp ledger migrate shares, parsed into typed variables:
// the input description (domain, response policy, public transform; optionally from a JSON config
// file). gpdp release itself reads its options through its request (release/request_from_json.hpp).
#include <CLI/CLI.hpp>
#include <string>

#include "gpdp/release/input.hpp"
#include "options.hpp"

namespace gpdp::cli {

struct InputFlags {
  std::string config;
  std::string domain;
  double M_Y = 1.0;
  std::string policy = "clip";
  std::string transform = "none";
  double center = 0.0;
  double scale = 1.0;
  bool sign = false;
  std::string crs;
  std::string model_crs;
};
void add_input_flags(CLI::App* app, InputFlags& f);
// The config file (if any) first, then every flag given on the command line on top of it.
// `require_domain`: the domain must be declared (every release; not `ledger migrate`, which only
// reads the records).
release::InputSpec to_input_spec(const DataOptions& data, const InputFlags& f, const CLI::App* app,
                                 bool require_domain = true);

}  // namespace gpdp::cli
