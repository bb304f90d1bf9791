// gpdp sample: exact draws of the posterior path f_D (+ g) on points or a grid, written as CSV.
// The flags are the library's options table (commands/sample.hpp); argv becomes the JSON request
// (--print-request shows it), which commands::sample_request_from_json reads, as it reads Python's
// gpdp.sample.command options; commands::run_sample_command runs it.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/commands/sample.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const auto warn_seeded = [](std::uint64_t seed) {
    fmt::print(stderr,
               "gpdp sample: seeded draw (--seed {}): reproducible and NOT private; omit --seed "
               "for a release\n",
               seed);
  };
  const commands::SampleOutcome outcome =
      commands::run_sample_command(commands::sample_request_from_json(parsed.request), warn_seeded);
  SpecOptions::print_outcome(parsed, outcome.report, outcome.text);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "sample",
      "Exact draws of the GP posterior path f_D ~ GP(μ_D, σ² k_D) (plus g ~ GP(0, η² k) with\n"
      "--eta) on query points or a regular grid. Output CSV: x1..xd, draw1..drawL, one row per\n"
      "point. Without --seed the secure RNG is used; --seed makes a reproducible, NOT private "
      "draw.\n"
      "This command does not account privacy: use 'gpdp release' for a certified release.\n"
      "Example: gpdp sample --data train.csv --kernel exp --ell 0.3 --r 0.5 --sigma 1 \\\n"
      "           --grid 0:1:800 --draws 3 --out draws.csv");
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("sample"));
  declare_point_options(*opts);
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
