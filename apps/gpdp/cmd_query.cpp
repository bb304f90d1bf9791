// gpdp query: further points of a released path kept with `gpdp release --keep-path`, drawn
// conditionally on everything the path has already answered (lazy evaluation, docs/mathematics.md
// §1): the same path, so no privacy budget is consumed. Needs the data file of the release (its
// SHA-256 must match) and the ledger that recorded the path. The flags are the library's options
// table (commands/query.hpp); argv becomes the JSON request (--print-request shows it), which
// commands::query_request_from_json reads, as it reads Python's gpdp.query.command options;
// commands::run_query_command runs it.
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/commands/query.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  if (parsed.request.contains("insecure-seed"))
    std::fprintf(stderr, "gpdp query: --insecure-seed: these answers are NOT PRIVATE\n");
  const commands::QueryOutcome outcome =
      commands::run_query_command(commands::query_request_from_json(parsed.request));
  SpecOptions::print_outcome(parsed, outcome.report, outcome.text);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "query",
      "Evaluate a kept released path at new points, conditionally on its earlier answers\n"
      "(no budget consumed). Example:\n"
      "  gpdp query path.gpdp --data d.csv --points new.csv --out new-values.csv");
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("query"));
  auto* p = opts->option("--points");
  auto* g = opts->option("--grid");
  auto* g2 = opts->option("--grid2d");
  p->excludes(g)->excludes(g2);
  g->excludes(g2);
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
