// gpdp preview: know the map before you spend the budget. Simulates releases from PUBLIC inputs
// only (the release's public flags, the private data set's size n, public proxy data or prior
// fields) and predicts the utility of each candidate configuration per ε; the private file is
// never opened and no budget is spent. With --calibrate-epsilon E_s (and --data, --dataset,
// --ledger) it instead spends E_s, recorded in the ledger, on `--mechanism auto`'s DP summary and
// predicts auto's candidates on simulations calibrated by it (preview/calibrated_preview.hpp).
// The flags are the library's options table (release/preview_options.hpp); argv becomes the JSON
// request (--print-request shows it), which preview::preview_request_from_json reads, as it reads
// Python's gpdp.preview.command options; preview::run_preview_command runs it.
#include <fmt/format.h>

#include <functional>
#include <memory>
#include <string>

#include "command.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/preview/command.hpp"
#include "gpdp/preview/request_from_json.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

// What the parser checks before the request is read (the request's reader checks the same; here
// they are also shown in --help).
void declare_relations(const SpecOptions& opts) {
  declare_point_options(opts);
  auto* be = opts.option("--budget-epsilon");
  auto* bd = opts.option("--budget-delta");
  be->needs(bd);
  bd->needs(be);
}

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const preview::PreviewCommand command = preview::preview_request_from_json(parsed.request);
  std::function<void(const std::string&)> progress;
  if (!parsed.front_end.value("quiet", false))
    progress = [](const std::string& s) { fmt::print(stderr, "{}\n", s); };
  const preview::PreviewCommandOutcome outcome = preview::run_preview_command(command, progress);
  if (parsed.front_end.value("json", false)) {
    fmt::print("{}\n", outcome.report.dump(2));
  } else {
    fmt::print("{}", outcome.text);
  }
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "preview",
      "Predict the utility of a release before spending any budget: simulates releases from\n"
      "PUBLIC inputs only (the release's public flags, the private data set's size --n, public\n"
      "proxy data --public-data or, without it, prior fields at the public θ) and reports, per\n"
      "ε target and candidate configuration (r- or η-calibrated paths, L paths with a vote\n"
      "cutoff, smoothing, the functional mechanism), the IoU of the released set with the\n"
      "non-private set. Reads no private data and spends nothing; the report says the\n"
      "prediction is uncalibrated. With --calibrate-epsilon E_s --data --dataset --ledger it\n"
      "spends E_s (recorded in the ledger) on --mechanism auto's DP summary and predicts auto's\n"
      "candidates at each ε with an accuracy interval, calibrated by it.\n"
      "Example:\n"
      "  gpdp preview --domain 0:1,0:1 --grid2d 0:1:64,0:1:64 --threshold 0 --kernel exp \\\n"
      "    --ell 0.2 --sigma 1 --r 0.5 --delta 1e-4 --n 400 --epsilons 1,3,10 --out prev\n"
      "Writes DIR/preview.json and DIR/preview.png and prints a table; `gpdp release\n"
      "--config-from DIR/preview.json --target-epsilon E` releases with the configuration\n"
      "chosen for E. docs/utility.md measures how far predictions are from realised maps.");
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("preview"));
  declare_relations(*opts);
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
