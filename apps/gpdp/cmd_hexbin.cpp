// gpdp hexbin: aggregate point records to a hexagonal lattice over a declared box (paper App. D.2).
// The flags are the library's options table (commands/hexbin.hpp); argv becomes the JSON request
// (--print-request shows it), which commands::hexbin_request_from_json reads, as it reads Python's
// gpdp.hexbin.command options; commands::run_hexbin_command runs it.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/commands/hexbin.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const commands::HexbinOutcome outcome =
      commands::run_hexbin_command(commands::hexbin_request_from_json(parsed.request));
  SpecOptions::print_outcome(parsed, outcome.report, outcome.text);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "hexbin",
      "Aggregate point records to a hexagonal lattice over a DECLARED box: median value and count "
      "per\n"
      "non-empty hexagon (paper App. D.2). The lattice depends only on --box and --cell-width.\n"
      "Output CSV: column,row,x,y (centre),u,v (centre scaled to [0,1]^2 by the box's longer "
      "side),\n"
      "median,count. Example (Lucas County sales of 1998, median log price on 1 km hexagons):\n"
      "  gpdp hexbin --data lucas.csv --x x --y y --value price --log --where syear=1998 \\\n"
      "      --box 484000:539000,195000:230000 --cell-width 1000 --out hex1998.csv");
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("hexbin"));
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
