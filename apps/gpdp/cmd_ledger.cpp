// gpdp ledger show|export|migrate: what has been released from each dataset, what budget remains,
// and the migration of schema-1 ledgers (budgets keyed by data-file hashes) to named datasets. Each
// subcommand's flags are the library's options table (commands/ledger.hpp); argv becomes the JSON
// request (--print-request shows it), which the library's reader reads, as it reads Python's
// gpdp.ledger keywords.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/commands/ledger.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run_show(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const auto outcome =
      commands::run_ledger_show(commands::ledger_show_request_from_json(parsed.request));
  SpecOptions::print_outcome(parsed, outcome.report, outcome.text);
}

void run_export(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  fmt::print(
      "{}",
      commands::run_ledger_export(commands::ledger_export_request_from_json(parsed.request)).text);
}

void run_migrate(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  fmt::print("{}", commands::run_ledger_migrate(
                       commands::ledger_migrate_request_from_json(parsed.request)));
}

// The subcommand `name` of `ledger` with the options table "ledger <name>", run by `run`.
void add(CLI::App* ledger, const std::string& name, const std::string& help,
         void (*run)(const SpecOptions&)) {
  auto* sub = ledger->add_subcommand(name, help);
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("ledger " + name));
  sub->callback([opts, run] { run(*opts); });
}

void setup(CLI::App& app) {
  auto* ledger = app.add_subcommand(
      "ledger", "Inspect a privacy-budget ledger (releases, remaining budget) or migrate it");
  ledger->require_subcommand(1);
  add(ledger, "show", "List every release per dataset and the remaining budget", &run_show);
  add(ledger, "export",
      "Write the whole ledger as JSON (stdout or --out FILE); never the fingerprints", &run_export);
  add(ledger, "migrate",
      "Upgrade a schema-1 ledger (budgets keyed by the SHA-256 of a data file) and assign the\n"
      "releases of one data file to a named dataset (its records' fingerprint computed from the\n"
      "file). Without --data: upgrade and list the files still to migrate.",
      &run_migrate);
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
