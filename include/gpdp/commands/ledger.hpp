#pragma once
// `gpdp ledger show|export|migrate` as declared requests: each subcommand's options as data (the
// CLI's flags and positional ledger file, apps/gpdp/cmd_ledger.cpp, and Python's gpdp.ledger
// keywords), the one reader of its JSON request (the CLI's, which --print-request prints, and
// Python's) and its run, which both front ends call. A request holds only the options given
// ({"ledger": "ledger.sqlite", "dataset": "north"}). Errors name request parameters ("dataset",
// "data", "M_Y"); each front end spells them its own way (the CLI as its flags).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/commands/outcome.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/release/input.hpp"

namespace gpdp::commands {

// show: the ledger file (positional), --dataset, --json (the CLI's own).
std::vector<options::OptionSpec> ledger_show_options();
// export: the ledger file (positional), --dataset, --out/-o (default: the report is the output).
std::vector<options::OptionSpec> ledger_export_options();
// migrate: the ledger file (positional), --ledger-key, --data/--x/--y (the data file is optional),
// the release's input options (--config, --domain, ...: how the file's records are read) and
// --dataset, --new-dataset-despite-overlap.
std::vector<options::OptionSpec> ledger_migrate_options();

// show and export: which ledger, which dataset ("" every one), and where export writes ("":
// nowhere, the caller prints the report).
struct LedgerReportCommand {
  std::string ledger;
  std::string dataset;
  std::string out;
};
LedgerReportCommand ledger_show_request_from_json(const nlohmann::json& request);
LedgerReportCommand ledger_export_request_from_json(const nlohmann::json& request);

// The report, and as text show's table, or export's JSON (without out).
using LedgerOutcome = CommandOutcome;
// Every dataset of the ledger (or the one asked for) with its releases, budget and the spend its
// filter counts, and the schema-1 rows not migrated yet. Record fingerprints are never part of it.
LedgerOutcome run_ledger_show(const LedgerReportCommand& c);
// The same report as JSON, written atomically to `out` (text empty) or returned as text.
LedgerOutcome run_ledger_export(const LedgerReportCommand& c);

// migrate: schema 1 → current, then (with a data file) that file's releases assigned to a dataset.
struct LedgerMigrateCommand {
  std::string ledger;
  std::string ledger_key;  // "" : <ledger>.key
  // The data file and how its records are read (no domain needed: only the records' fingerprints
  // are computed); absent: upgrade and list the files still to migrate.
  std::optional<std::string> data;
  release::InputSpec input;
  std::string dataset;       // required with a data file
  bool new_dataset = false;  // migrate although the records already belong to another dataset
};
LedgerMigrateCommand ledger_migrate_request_from_json(const nlohmann::json& request);
// The lines the CLI prints: what was migrated and what is left.
std::string run_ledger_migrate(const LedgerMigrateCommand& c);

}  // namespace gpdp::commands
