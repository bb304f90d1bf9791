// gpdp ledger show|export: what has been released from each dataset and what budget remains.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/mechanism_json.hpp"

namespace gpdp::cli {

namespace {

using nlohmann::json;

struct LedgerFlags {
  std::string path;
  std::string dataset;  // optional hash prefix filter
  std::string conversion = "cks";
  std::string out;
  bool json = false;
};

// Every dataset of the ledger with its releases, budget and the composed spend (at the budget's δ).
json ledger_report(const LedgerFlags& f) {
  const auto ledger = release::Ledger::open_existing(f.path);
  const auto conversion = privacy::parse_conversion(f.conversion);
  json report{{"ledger", f.path},
              {"conversion", privacy::to_string(conversion)},
              {"datasets", json::array()}};
  for (const auto& hash : ledger.datasets()) {
    if (hash.rfind(f.dataset, 0) != 0) continue;
    const auto rows = ledger.releases(hash);
    const auto budget = ledger.budget(hash);
    json d{{"dataset_sha256", hash}, {"releases", json::array()}};
    std::vector<release::CountedMechanism> ms;
    for (const auto& e : rows) {
      ms.push_back(
          release::mechanism_from_json(e.mechanism, fmt::format("{}: release {}", f.path, e.id)));
      d["releases"].push_back({{"id", e.id},
                               {"created", e.created},
                               {"epsilon", e.epsilon},
                               {"delta", e.delta},
                               {"conversion", e.conversion},
                               {"draws", e.mechanism.value("count", 1)},
                               {"parameters", e.parameters},
                               {"mechanism", e.mechanism},
                               {"out_dir", e.out_dir},
                               {"kept_path_id", e.path_id}});
    }
    if (budget) {
      const double spent =
          ms.empty() ? 0.0 : release::compose(ms).epsilon(budget->delta, conversion).epsilon;
      d["budget"] = {{"epsilon", budget->epsilon}, {"delta", budget->delta}};
      d["epsilon_spent"] = spent;
      d["epsilon_remaining"] = budget->epsilon - spent;
    }
    report["datasets"].push_back(d);
  }
  return report;
}

std::string format_report(const json& r) {
  std::string out = fmt::format("ledger {}  (composition by RDP, conversion {})\n",
                                r["ledger"].get<std::string>(), r["conversion"].get<std::string>());
  if (r["datasets"].empty()) out += "  no releases recorded\n";
  for (const auto& d : r["datasets"]) {
    out += fmt::format("dataset sha256 {}\n", d["dataset_sha256"].get<std::string>());
    if (d.contains("budget")) {
      out += fmt::format("  budget ε = {} at δ = {}: spent {:.4g}, remaining {:.4g}\n",
                         d["budget"]["epsilon"].get<double>(), d["budget"]["delta"].get<double>(),
                         d["epsilon_spent"].get<double>(), d["epsilon_remaining"].get<double>());
    } else {
      out += "  no budget set\n";
    }
    out += fmt::format("  {:>4}  {:<20}  {:>9}  {:>9}  {:>5}  {}\n", "id", "created (UTC)", "ε",
                       "δ", "L", "output");
    for (const auto& e : d["releases"]) {
      out += fmt::format("  {:>4}  {:<20}  {:>9.4g}  {:>9.3g}  {:>5}  {}{}\n", e["id"].get<long>(),
                         e["created"].get<std::string>(), e["epsilon"].get<double>(),
                         e["delta"].get<double>(), e["draws"].get<long>(),
                         e["out_dir"].get<std::string>(),
                         e["kept_path_id"].get<std::string>().empty() ? "" : "  (path kept)");
    }
  }
  return out;
}

void add_common(CLI::App* sub, LedgerFlags& f) {
  sub->add_option("ledger", f.path, "Ledger file (SQLite, as written by gpdp release)")->required();
  sub->add_option("--dataset", f.dataset, "Only datasets whose SHA-256 starts with this");
  sub->add_option("--conversion", f.conversion, "RDP → (ε, δ) for the totals: cks or mironov")
      ->capture_default_str();
}

void setup(CLI::App& app) {
  auto* ledger = app.add_subcommand(
      "ledger", "Inspect a privacy-budget ledger: releases and remaining budget");
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
  auto* exp =
      ledger->add_subcommand("export", "Write the whole ledger as JSON (stdout or --out FILE)");
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
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
