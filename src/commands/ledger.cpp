// gpdp ledger show|export|migrate: what has been released from each dataset, what budget remains,
// and the migration of schema-1 ledgers (budgets keyed by data-file hashes) to named datasets, as
// declared requests (ledger.hpp).
#include "gpdp/commands/ledger.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gpdp/error.hpp"
#include "gpdp/release/dataset_identity.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/release_options.hpp"
#include "io/atomic_file.hpp"
#include "options/model_options.hpp"
#include "release/option_values.hpp"

namespace gpdp::commands {

namespace {
using nlohmann::json;
using options::option;
using options::OptionType;

options::OptionSpec ledger_file(const std::string& help) {
  return option("ledger", OptionType::Text, nullptr, help).as_positional().as_required();
}

options::OptionSpec only_dataset() {
  return option("--dataset", OptionType::Text, nullptr, "Only this dataset");
}

// The request's values with typed reads whose errors name parameters.
release::OptionValues values_of(const std::vector<options::OptionSpec>& specs, const json& request,
                                const std::string& command) {
  options::check_request_keys(specs, request, command);
  return {request, "", "", release::KeyNames::Parameters};
}

std::string text_or_empty(const release::OptionValues& o, const std::string& key) {
  return o.has(key) ? o.text(key) : std::string();
}

LedgerReportCommand report_command(const release::OptionValues& o) {
  return {o.text("ledger"), text_or_empty(o, "dataset"), text_or_empty(o, "out")};
}

}  // namespace

std::vector<options::OptionSpec> ledger_show_options() {
  return {ledger_file("Ledger file (SQLite, as written by gpdp release)"), only_dataset(),
          option("--json", OptionType::Flag, false, "Print JSON instead of a table")
              .in_scope(options::OptionScope::Cli)};
}

std::vector<options::OptionSpec> ledger_export_options() {
  return {
      ledger_file("Ledger file (SQLite, as written by gpdp release)"), only_dataset(),
      option("--out", OptionType::Text, nullptr, "Output file (default: stdout)").with_alias("-o")};
}

std::vector<options::OptionSpec> ledger_migrate_options() {
  std::vector<options::OptionSpec> specs{ledger_file("Ledger file"),
                                         option("--ledger-key", OptionType::Text, nullptr,
                                                "Key of the fingerprints (default <ledger>.key)")};
  specs = options::concat(specs, release::data_options(false));
  specs = options::concat(specs, release::input_options());
  return options::concat(
      specs,
      {option("--dataset", OptionType::Text, nullptr, "The dataset the file's releases belong to"),
       option("--new-dataset-despite-overlap", OptionType::Flag, false,
              "Migrate even though the records were already assigned to another dataset")
           .with_parameter("new_dataset")});
}

LedgerReportCommand ledger_show_request_from_json(const json& request) {
  return report_command(values_of(ledger_show_options(), request, "ledger show"));
}

LedgerReportCommand ledger_export_request_from_json(const json& request) {
  return report_command(values_of(ledger_export_options(), request, "ledger export"));
}

namespace {

json spend_json(const release::DatasetSummary& d) {
  const auto& spent = *d.spent;
  return {{"epsilon_spent", spent.epsilon},
          {"epsilon_remaining", d.filter->budget().epsilon - spent.epsilon},
          {"alpha", spent.alpha},
          {"rdp_spent", spent.rdp},
          {"rdp_budget", spent.rdp_budget}};
}

json dataset_json(const release::DatasetSummary& d, const release::Ledger& ledger) {
  json j{{"dataset", d.name},
         {"created", d.created},
         {"distinct_records", d.records},
         {"releases", json::array()}};
  for (const auto& e : d.releases) {
    j["releases"].push_back({{"id", e.id},
                             {"created", e.created},
                             {"epsilon", e.epsilon},
                             {"delta", e.delta},
                             {"conversion", e.conversion},
                             {"draws", e.parameters.value("draws", 1)},
                             {"parameters", e.parameters},
                             {"privacy_record", e.record},
                             {"identity", e.identity},
                             {"data_sha256", e.data_sha256},
                             {"out_dir", e.out_dir},
                             {"kept_path_id", e.path_id},
                             {"state", release::to_string(e.state)},
                             {"state_note", e.state_note}});
    if (const auto h = ledger.path_history(e.path_id)) {
      j["releases"].back()["kept_path"] = {
          {"answered", h->current.answered}, {"private", h->is_private}, {"updated", h->updated}};
    }
  }
  if (d.filter) {
    j["budget"] = {{"epsilon", d.filter->budget().epsilon}, {"delta", d.filter->budget().delta}};
    j["filter"] = d.filter->to_json();
    j.update(spend_json(d));
  }
  return j;
}

json ledger_report(const LedgerReportCommand& c) {
  const auto ledger = release::Ledger::open_existing(c.ledger);
  json report{{"ledger", c.ledger}, {"datasets", json::array()}, {"legacy", json::array()}};
  for (const auto& d : ledger.datasets()) {
    if (c.dataset.empty() || d.name == c.dataset)
      report["datasets"].push_back(dataset_json(d, ledger));
  }
  for (const auto& g : ledger.legacy()) {
    json l{{"data_sha256", g.sha256}, {"releases", g.releases}};
    if (g.budget) l["budget"] = {{"epsilon", g.budget->epsilon}, {"delta", g.budget->delta}};
    report["legacy"].push_back(l);
  }
  return report;
}

std::string release_line(const json& e) {
  const std::string note = e["state_note"].get<std::string>();
  return fmt::format(
      "  {:>4}  {:<20}  {:>9.4g}  {:>9.3g}  {:>5}  {:<10}  {}{}{}\n", e["id"].get<long>(),
      e["created"].get<std::string>(), e["epsilon"].get<double>(), e["delta"].get<double>(),
      e["draws"].get<long>(), e["state"].get<std::string>(), e["out_dir"].get<std::string>(),
      !e.contains("kept_path")
          ? (e["kept_path_id"].get<std::string>().empty() ? "" : "  (path kept)")
          : fmt::format("  (path kept: {} points answered{})",
                        e["kept_path"]["answered"].get<long>(),
                        e["kept_path"]["private"].get<bool>() ? "" : ", NOT PRIVATE"),
      note.empty() ? "" : "  (" + note + ")");
}

std::string report_table(const json& r) {
  std::string out = fmt::format("ledger {}\n", r["ledger"].get<std::string>());
  if (r["datasets"].empty() && r["legacy"].empty()) out += "  no releases recorded\n";
  for (const auto& d : r["datasets"]) {
    out += fmt::format("dataset {}  ({} distinct records)\n", d["dataset"].get<std::string>(),
                       d["distinct_records"].get<long>());
    if (d.contains("budget")) {
      out += fmt::format(
          "  budget ε = {} at δ = {}: spent {:.4g}, remaining {:.4g}  (Rényi filter, order(s) "
          "{:.6g})\n",
          d["budget"]["epsilon"].get<double>(), d["budget"]["delta"].get<double>(),
          d["epsilon_spent"].get<double>(), d["epsilon_remaining"].get<double>(),
          fmt::join(d["filter"]["orders"].get<std::vector<double>>(), ", "));
    } else {
      out += "  no budget set\n";
    }
    out += fmt::format("  {:>4}  {:<20}  {:>9}  {:>9}  {:>5}  {:<10}  {}\n", "id", "created (UTC)",
                       "ε", "δ", "L", "state", "output");
    for (const auto& e : d["releases"]) out += release_line(e);
  }
  for (const auto& g : r["legacy"]) {
    out += fmt::format(
        "NOT MIGRATED: {} release(s) of the data file with SHA-256 {} (ledger schema 1); run "
        "gpdp ledger migrate {} --data FILE --dataset NAME\n",
        g["releases"].get<long>(), g["data_sha256"].get<std::string>(),
        r["ledger"].get<std::string>());
  }
  return out;
}

}  // namespace

LedgerOutcome run_ledger_show(const LedgerReportCommand& c) {
  json report = ledger_report(c);
  std::string text = report_table(report);
  return {std::move(report), std::move(text)};
}

LedgerOutcome run_ledger_export(const LedgerReportCommand& c) {
  json report = ledger_report(c);
  const std::string text = report.dump(2) + "\n";
  if (c.out.empty()) return {std::move(report), text};
  io::write_file_atomic(c.out, text);
  return {std::move(report), ""};
}

LedgerMigrateCommand ledger_migrate_request_from_json(const json& request) {
  const release::OptionValues o = values_of(ledger_migrate_options(), request, "ledger migrate");
  LedgerMigrateCommand c;
  c.ledger = o.text("ledger");
  c.ledger_key = text_or_empty(o, "ledger-key");
  c.dataset = text_or_empty(o, "dataset");
  c.new_dataset = o.flag("new-dataset-despite-overlap");
  const std::string data = text_or_empty(o, "data");
  if (!data.empty()) {
    if (c.dataset.empty())
      throw ParameterError({"dataset", "data"}, "dataset NAME is required with data");
    c.data = data;
    release::read_input(o, c.input, false);
  }
  return c;
}

std::string run_ledger_migrate(const LedgerMigrateCommand& c) {
  auto ledger = release::Ledger::open_for_migration(c.ledger, c.ledger_key);
  std::string out;
  if (c.data) {
    const auto records = release::read_records(*c.data, c.input);
    const release::LedgerKey& key = ledger.key();
    const release::DatasetIdentity id{
        c.dataset, release::fingerprint(records.X, records.raw_response, key), c.new_dataset,
        release::table_fingerprint(records.numeric_rows, key),
        release::covariate_fingerprint(records.X, key)};
    const auto d = ledger.migrate_legacy(records.sha256, id);
    out += fmt::format(
        "migrated the releases of {} (SHA-256 {}) to dataset '{}': {} release(s), {} "
        "distinct records{}\n",
        *c.data, records.sha256, d.name, d.releases.size(), d.records,
        d.filter ? fmt::format(", budget ε = {} at δ = {} with a Rényi filter at α = {:.6g}",
                               d.filter->budget().epsilon, d.filter->budget().delta,
                               d.filter->orders().front())
                 : "");
  }
  const auto left = ledger.legacy();
  if (left.empty())
    return out + fmt::format("ledger {}: schema 3, nothing left to migrate\n", c.ledger);
  for (const auto& g : left) {
    out += fmt::format("still to migrate: {} release(s) of the data file with SHA-256 {}\n",
                       g.releases, g.sha256);
  }
  return out;
}

}  // namespace gpdp::commands
