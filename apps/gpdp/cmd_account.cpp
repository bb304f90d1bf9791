// gpdp account: (ε, δ) of L released posterior sample paths (docs/mathematics.md §2). The flags
// are the library's options table (commands/account.hpp); argv becomes the JSON request
// (--print-request shows it), which commands::account_request_from_json reads, as it reads
// Python's gpdp.account.command options; commands::run_account_command runs it.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpdp/commands/account.hpp"
#include "gpdp/commands/command_options.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const commands::AccountOutcome outcome =
      commands::run_account_command(commands::account_request_from_json(parsed.request));
  if (!outcome.note.empty()) fmt::print(stderr, "gpdp: note: {}\n", outcome.note);
  SpecOptions::print_outcome(parsed, outcome.report, outcome.text);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "account",
      "Privacy guarantee (ε at a given δ) of releasing L exact GP posterior sample paths.\n"
      "Rényi-DP by Theorem 3.1 (η = 0) / Proposition 2 (η > 0) of the paper, V_n by Proposition 3\n"
      "(or --Vn), Δ_n by the chosen lemma (or --Delta-n), composed over L draws and converted to\n"
      "(ε, δ) with the optimal Rényi order. --sigma inf gives the covariance-only bound.");
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("account"));
  sub->footer(
      "Example: gpdp account --kernel exp1d --ell 1 --n 100 --r 1 --sigma 1 --sensitivity b7 "
      "--draws 1 --delta 0.005");
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
