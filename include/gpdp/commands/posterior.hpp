#pragma once
// `gpdp posterior` as one declared request: its options as data (posterior_options(): the CLI's
// flags, apps/gpdp/cmd_posterior.cpp, and Python's gpdp.posterior keywords), the one reader of its
// JSON request (posterior_request_from_json: the CLI's, which --print-request prints, and Python's
// gpdp.posterior.command) and the command's run (run_posterior_command), which both front ends
// call. The request holds only the options given ({"data": "train.csv", "grid": "0:1:5",
// "threshold": 0, "out": "post.csv"}); the reader gives the others the table's defaults. Errors
// name request parameters ("out", "threshold", "M_Y"); each front end spells them its own way (the
// CLI as its flags). Nothing is drawn or released: the output depends on the data directly and is
// NOT differentially private.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/commands/outcome.hpp"
#include "gpdp/commands/posterior_query.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/release/input.hpp"

namespace gpdp::commands {

// The data, kernel, θ and points (posterior_query_options), a release's public response transform
// (--transform, --center, --scale, --M-Y, --sign: release::input_options' help), --threshold, --out
// and --json (the CLI's own).
std::vector<options::OptionSpec> posterior_options();

// The request read and validated.
struct PosteriorCommand {
  PosteriorQueryRequest query;
  // With any of transform, center, scale, M-Y, sign given: the responses are prepared as a
  // release prepares them, y ← clip((transform(y) − C)/B, ±M_Y); none given: as read.
  std::optional<release::InputSpec> input;
  std::optional<double> threshold;  // t in response units (finite): adds column p_exceed
  std::string out;                  // the CSV written (x1..xd, mean, variance[, p_exceed])
};

// Checks, in this order: out, threshold, the transform's name, M_Y > 0, scale > 0, then the kernel
// and θ (read_posterior_query); the data and points are read by the run (ParameterError naming
// the parameter).
PosteriorCommand posterior_request_from_json(const nlohmann::json& request);

// The report, and as text the summary.
using PosteriorOutcome = CommandOutcome;

// Reads the data (prepared as `input` says) and points, and writes the posterior mean μ_D(x),
// variance σ² k_D(x,x) + η² and, with a threshold t, p_exceed(x) = Φ((μ_D(x) − t)/sd(x)) at each
// point to `out` (whole or not at all).
PosteriorOutcome run_posterior_command(const PosteriorCommand& c);

}  // namespace gpdp::commands
