// gpdp ledger show|export|migrate: what has been released from each dataset, what budget remains,
// and the migration of schema-1 ledgers (budgets keyed by data-file hashes) to named datasets.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/release/ledger.hpp"
#include "options.hpp"
#include "release_options.hpp"

namespace gpdp::cli {

namespace {

using nlohmann::json;

struct LedgerFlags {
  std::string path;
  std::string dataset;  // optional: one dataset only
  std::string out;
  bool json = false;
};

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

// Every dataset of the ledger with its releases, budget and the spend its filter counts. Record
// fingerprints are never part of a report.
json ledger_report(const LedgerFlags& f) {
  const auto ledger = release::Ledger::open_existing(f.path);
  json report{{"ledger", f.path}, {"datasets", json::array()}, {"legacy", json::array()}};
  for (const auto& d : ledger.datasets()) {
    if (f.dataset.empty() || d.name == f.dataset)
      report["datasets"].push_back(dataset_json(d, ledger));
  }
  for (const auto& g : ledger.legacy()) {
    json l{{"data_sha256", g.sha256}, {"releases", g.releases}};
    if (g.budget) l["budget"] = {{"epsilon", g.budget->epsilon}, {"delta", g.budget->delta}};
    report["legacy"].push_back(l);
  }
  return report;
}

std::string format_report(const json& r) {
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
    for (const auto& e : d["releases"]) {
      const std::string note = e["state_note"].get<std::string>();
      out += fmt::format(
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

void add_common(CLI::App* sub, LedgerFlags& f) {
  sub->add_option("ledger", f.path, "Ledger file (SQLite, as written by gpdp release)")->required();
  sub->add_option("--dataset", f.dataset, "Only this dataset");
}

struct MigrateFlags {
  std::string path;
  std::string ledger_key;
  DataOptions data;
  InputFlags input;
  std::string dataset;
  bool new_dataset = false;
};

// Schema 1 → 2, then (with --data) the rows of that file under --dataset.
void run_migrate(MigrateFlags& f, const CLI::App* sub) {
  auto ledger = release::Ledger::open_for_migration(f.path, f.ledger_key);
  if (!f.data.path.empty()) {
    require(!f.dataset.empty(), "--dataset NAME is required with --data");
    const release::InputSpec spec = to_input_spec(f.data, f.input, sub, false);
    const auto records = release::read_records(f.data.path, spec);
    const release::LedgerKey& key = ledger.key();
    const release::DatasetIdentity id{
        f.dataset, release::fingerprint(records.X, records.raw_response, key), f.new_dataset,
        release::table_fingerprint(records.numeric_rows, key),
        release::covariate_fingerprint(records.X, key)};
    const auto d = ledger.migrate_legacy(records.sha256, id);
    fmt::print(
        "migrated the releases of {} (SHA-256 {}) to dataset '{}': {} release(s), {} "
        "distinct records{}\n",
        f.data.path, records.sha256, d.name, d.releases.size(), d.records,
        d.filter ? fmt::format(", budget ε = {} at δ = {} with a Rényi filter at α = {:.6g}",
                               d.filter->budget().epsilon, d.filter->budget().delta,
                               d.filter->orders().front())
                 : "");
  }
  const auto left = ledger.legacy();
  if (left.empty()) {
    fmt::print("ledger {}: schema 3, nothing left to migrate\n", f.path);
    return;
  }
  for (const auto& g : left) {
    fmt::print("still to migrate: {} release(s) of the data file with SHA-256 {}\n", g.releases,
               g.sha256);
  }
}

void setup_migrate(CLI::App* ledger) {
  auto f = std::make_shared<MigrateFlags>();
  auto* sub = ledger->add_subcommand(
      "migrate",
      "Upgrade a schema-1 ledger (budgets keyed by the SHA-256 of a data file) and assign the\n"
      "releases of one data file to a named dataset (its records' fingerprint computed from the\n"
      "file). Without --data: upgrade and list the files still to migrate.");
  sub->add_option("ledger", f->path, "Ledger file")->required();
  sub->add_option("--ledger-key", f->ledger_key, "Key of the fingerprints (default <ledger>.key)");
  add_data_options(sub, f->data, false);
  add_input_flags(sub, f->input);
  sub->add_option("--dataset", f->dataset, "The dataset the file's releases belong to");
  sub->add_flag("--new-dataset-despite-overlap", f->new_dataset,
                "Migrate even though the records were already assigned to another dataset");
  sub->callback([f, sub] { run_migrate(*f, sub); });
}

void setup(CLI::App& app) {
  auto* ledger = app.add_subcommand(
      "ledger", "Inspect a privacy-budget ledger (releases, remaining budget) or migrate it");
  ledger->require_subcommand(1);
  auto show_flags = std::make_shared<LedgerFlags>();
  auto* show =
      ledger->add_subcommand("show", "List every release per dataset and the remaining budget");
  add_common(show, *show_flags);
  show->add_flag("--json", show_flags->json, "Print JSON instead of a table");
  show->callback([show_flags] {
    const auto report = ledger_report(*show_flags);
    fmt::print("{}", show_flags->json ? report.dump(2) + "\n" : format_report(report));
  });
  auto export_flags = std::make_shared<LedgerFlags>();
  auto* exp = ledger->add_subcommand(
      "export", "Write the whole ledger as JSON (stdout or --out FILE); never the fingerprints");
  add_common(exp, *export_flags);
  exp->add_option("--out,-o", export_flags->out, "Output file (default: stdout)");
  exp->callback([export_flags] {
    const std::string text = ledger_report(*export_flags).dump(2) + "\n";
    if (export_flags->out.empty()) {
      fmt::print("{}", text);
    } else {
      io::write_file_atomic(export_flags->out, text);
    }
  });
  setup_migrate(ledger);
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
