// gpdp posterior: posterior mean, variance (and excursion probability) on points or a grid. The
// flags are the library's options table (commands/posterior.hpp); argv becomes the JSON request
// (--print-request shows it), which commands::posterior_request_from_json reads, as it reads
// Python's gpdp.posterior.command options; commands::run_posterior_command runs it.
#include <memory>

#include "command.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/commands/posterior.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const commands::PosteriorOutcome outcome =
      commands::run_posterior_command(commands::posterior_request_from_json(parsed.request));
  SpecOptions::print_outcome(parsed, outcome.report, outcome.text);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "posterior",
      "Posterior mean μ_D(x) and variance σ² k_D(x,x) (+ η² with --eta) of the released path on\n"
      "query points or a grid; with --threshold t also the excursion probability\n"
      "p_exceed(x) = Φ((μ_D(x) − t)/sd(x)). Output CSV: x1..xd, mean, variance[, p_exceed].\n"
      "With --transform/--center/--scale/--M-Y/--sign the responses are prepared as gpdp release\n"
      "prepares them (y ← clip((transform(y) − C)/B, ±M_Y)): the non-private reference of a\n"
      "release; mean and variance are then in model units and t in response units.\n"
      "Nothing random is drawn and nothing is released: these quantities depend on the private\n"
      "data directly and are NOT differentially private.");
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("posterior"));
  declare_point_options(*opts);
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
