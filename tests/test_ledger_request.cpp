// gpdp ledger show|export|migrate's requests (commands/ledger.hpp): the CLI's --print-request is
// the options given as request keys (the ledger file under "ledger", the CLI's positional
// argument), the readers' errors name parameters (the CLI spells them as flags) and refuse bad
// input before the ledger is opened, and the library's runs on a real ledger are what the CLI
// prints and writes. python/tests/test_ledger_command.py checks Python's gpdp.ledger against the
// CLI; test_cli_release.cpp's OldLedgerIsMigrated migrates a schema-1 ledger through the CLI.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "gpdp/commands/ledger.hpp"
#include "gpdp/error.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

TEST(LedgerRequest, CliPrintsTheOptionsGivenAndTheReadersReadThem) {
  auto r = run_cli("ledger show --json l.sqlite --dataset north --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json show = json::parse(r.out);
  EXPECT_EQ(show, (json{{"ledger", "l.sqlite"}, {"dataset", "north"}}));  // --json: the CLI's
  const auto s = commands::ledger_show_request_from_json(show);
  EXPECT_EQ(s.ledger, "l.sqlite");
  EXPECT_EQ(s.dataset, "north");

  r = run_cli("ledger export l.sqlite -o all.json --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto e = commands::ledger_export_request_from_json(json::parse(r.out));
  EXPECT_EQ(e.out, "all.json");
  EXPECT_EQ(e.dataset, "");

  r = run_cli(
      "ledger migrate old.sqlite --data d.csv --x lon,lat --y value --dataset s --transform log "
      "--new-dataset-despite-overlap --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json migrate = json::parse(r.out);
  EXPECT_EQ(migrate, (json{{"ledger", "old.sqlite"},
                           {"data", "d.csv"},
                           {"x", {"lon", "lat"}},
                           {"y", "value"},
                           {"transform", "log"},
                           {"dataset", "s"},
                           {"new-dataset-despite-overlap", true}}));
  const auto m = commands::ledger_migrate_request_from_json(migrate);
  ASSERT_TRUE(m.data.has_value());
  EXPECT_EQ(*m.data, "d.csv");
  EXPECT_EQ(m.input.x_columns, (std::vector<std::string>{"lon", "lat"}));
  EXPECT_EQ(m.input.y_column, "value");
  EXPECT_EQ(m.input.transform, release::ResponseTransform::Log);
  EXPECT_FALSE(m.input.domain.has_value());  // migrate reads records only: no domain needed
  EXPECT_TRUE(m.new_dataset);
}

// Bad input is refused by the reader, before the ledger is opened (a schema-1 ledger is not
// upgraded by a command that then fails); errors name parameters.
TEST(LedgerRequest, ReadersRefuseBadInputNamingParameters) {
  const auto parameters = [](const json& request) {
    try {
      commands::ledger_migrate_request_from_json(request);
    } catch (const ParameterError& e) {
      return e.parameters();
    }
    return std::vector<std::string>{"accepted"};
  };
  EXPECT_EQ(parameters({{"ledger", "l"}, {"data", "d.csv"}}),
            (std::vector<std::string>{"dataset", "data"}));
  EXPECT_EQ(parameters({{"ledger", "l"}, {"data", "d.csv"}, {"dataset", "s"}, {"M-Y", 0}}),
            std::vector<std::string>{"M_Y"});
  EXPECT_EQ(parameters({{"ledger", "l"}, {"data", "d.csv"}, {"dataset", "s"}, {"scale", -1}}),
            std::vector<std::string>{"scale"});
  EXPECT_EQ(parameters({{"data", "d.csv"}, {"dataset", "s"}}), std::vector<std::string>{"ledger"});
  EXPECT_EQ(parameters({{"ledger", 3}}), std::vector<std::string>{"ledger"});
  EXPECT_THROW(commands::ledger_show_request_from_json({{"ledger", "l"}, {"out", "o.json"}}),
               InputError);  // show has no out
  EXPECT_THROW(commands::ledger_export_request_from_json(json::array()), InputError);

  TempDir dir;
  const auto r = run_cli("ledger migrate " + dir.file("none.sqlite") + " --data d.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--dataset NAME is required with --data"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("none.sqlite")));
}

// Two releases recorded in a ledger by the CLI; the library's show and export are the CLI's.
TEST(LedgerRequest, RunsAreWhatTheCliPrintsAndWrites) {
  TempDir dir;
  std::string csv = "lon,lat,value\n";
  for (int i = 0; i < 20; ++i)
    csv += std::to_string((i % 5) / 5.0 + 0.1) + "," + std::to_string((i / 5) / 4.0 + 0.1) + "," +
           std::to_string(i % 3 == 0 ? 0.5 : -0.4) + "\n";
  write_text(dir.file("d.csv"), csv);
  const std::string ledger = dir.file("l.sqlite");
  for (const char* out : {"a", "b"}) {
    const auto r = run_cli(
        "release --data " + dir.file("d.csv") +
        " --x lon,lat --y value --domain 0:1,0:1 --kernel exp --ell 0.3 "
        "--r 3 --grid2d 0:1:6,0:1:5 --threshold 0 --delta 1e-3 --ledger " +
        ledger + " --dataset grid --budget-epsilon 9 --budget-delta 1e-3 --out " + dir.file(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto show = commands::run_ledger_show({ledger, "", ""});
  ASSERT_EQ(show.report["datasets"].size(), 1u);
  EXPECT_EQ(show.report["datasets"][0]["releases"].size(), 2u);
  EXPECT_GT(show.report["datasets"][0]["epsilon_spent"].get<double>(), 0.0);
  EXPECT_NE(show.text.find("dataset grid  (20 distinct records)"), std::string::npos) << show.text;
  EXPECT_EQ(run_cli("ledger show " + ledger).out, show.text);
  EXPECT_EQ(json::parse(run_cli("ledger show --json " + ledger).out), show.report);
  EXPECT_EQ(commands::run_ledger_show({ledger, "other", ""}).report["datasets"].size(), 0u);

  const auto exported = commands::run_ledger_export({ledger, "", dir.file("e.json")});
  EXPECT_EQ(exported.text, "");
  EXPECT_EQ(json::parse(read_text(dir.file("e.json"))), show.report);
  EXPECT_EQ(run_cli("ledger export " + ledger).out, show.report.dump(2) + "\n");
  EXPECT_EQ(commands::run_ledger_export({ledger, "", ""}).text, show.report.dump(2) + "\n");

  // A current ledger has nothing to migrate, and says so.
  commands::LedgerMigrateCommand m;
  m.ledger = ledger;
  EXPECT_EQ(commands::run_ledger_migrate(m),
            "ledger " + ledger + ": schema 3, nothing left to migrate\n");
}

}  // namespace
}  // namespace gpdp::test
