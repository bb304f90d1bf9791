#pragma once
// `gpdp sample` as one declared request: its options as data (sample_options(): the CLI's flags,
// apps/gpdp/cmd_sample.cpp, and Python's gpdp.sample keywords), the one reader of its JSON request
// (sample_request_from_json: the CLI's, which --print-request prints, and Python's
// gpdp.sample.command) and the command's run (run_sample_command), which both front ends call.
// The request holds only the options given ({"data": "train.csv", "grid": "0:1:800", "draws": 3,
// "out": "draws.csv"}); the reader gives the others the table's defaults. Errors name request
// parameters ("draws", "out", "grid"); each front end spells them its own way (the CLI as its
// flags). The command does no privacy accounting (gpdp release does).
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/commands/outcome.hpp"
#include "gpdp/commands/posterior_query.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp::commands {

// The data, kernel, θ and points (posterior_query_options), --draws, --seed, --method, --out and
// --json (the CLI's own).
std::vector<options::OptionSpec> sample_options();

// The request read and validated: what the draw is made from.
struct SampleCommand {
  PosteriorQueryRequest query;
  int draws = 1;                      // L ≥ 1
  std::optional<std::uint64_t> seed;  // none: the secure generator; a seed: NOT private
  SamplerMethod method = SamplerMethod::Auto;
  std::string out;  // the CSV written (x1..xd, draw1..drawL)
};

// Checks, in this order: draws, out, method, then the kernel and θ (read_posterior_query); the
// data and points are read by the run (ParameterError naming the parameter).
SampleCommand sample_request_from_json(const nlohmann::json& request);

// The report, and as text the summary.
using SampleOutcome = CommandOutcome;

// Reads the data and points, draws L exact paths of f_D (+ g) at the points (samplers/sampler.hpp)
// with the seeded generator or the secure one, and writes them to `out` (whole or not at all).
// `on_seeded_draw` is called with the seed once the data and points are read, before a seeded
// draw (the CLI warns there that the draw is reproducible and NOT private).
SampleOutcome run_sample_command(const SampleCommand& c,
                                 const std::function<void(std::uint64_t)>& on_seeded_draw = {});

}  // namespace gpdp::commands
