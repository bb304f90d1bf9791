// gpdp calibrate: the smallest r / η / σ or the largest L meeting a target (ε₀, δ)
// (docs/mathematics.md §2). The flags are the library's options table (commands/calibrate.hpp);
// argv becomes the JSON request (--print-request shows it), which
// commands::calibrate_request_from_json reads, as it reads Python's gpdp.calibrate.command
// options; commands::run_calibrate_command runs it.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpdp/commands/calibrate.hpp"
#include "gpdp/commands/command_options.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const commands::CalibrateOutcome outcome =
      commands::run_calibrate_command(commands::calibrate_request_from_json(parsed.request));
  SpecOptions::print_outcome(parsed, outcome.report, outcome.text);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "calibrate",
      "Find the smallest r, η, σ or noise scale s (--mechanism functional or grid-mean), or the\n"
      "largest number\n"
      "of draws L, whose exact accountant\n"
      "ε (at --delta, --conversion) meets --target-epsilon; the other parameters are as given.\n"
      "The answer is re-accounted and verified. Infeasible targets are refused with the reason.");
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("calibrate"));
  sub->footer(
      "Example: gpdp calibrate --target-epsilon 10 --delta 0.005 --solve r --kernel exp1d --ell "
      "0.5 "
      "--n 100 --sigma 1 --sensitivity b7");
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
