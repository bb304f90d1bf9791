// gpdp query's one request (commands/query.hpp): the CLI's --print-request is the options given as
// request keys (the kept path file under "path", the CLI's positional argument), the reader's
// errors name parameters (the CLI spells them as flags: the messages it printed before, but for
// two keys given together, worded as gpdp release words it), and
// the library's run on a real kept path is what the CLI prints and writes.
// python/tests/test_query.py checks Python's gpdp.query against the CLI.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpdp/commands/command_options.hpp"
#include "gpdp/commands/query.hpp"
#include "gpdp/error.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

TEST(QueryRequest, CliPrintsTheOptionsGivenAndTheReaderReadsThem) {
  const auto r = run_cli(
      "query --data d.csv --grid2d 0:1:3,0:1:4 -o new.csv --ledger l.sqlite --crs EPSG:4326 "
      "--insecure-seed 18446744073709551615 p.gpdp --json --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // --print-request draws nothing: no NOT PRIVATE warning
  const json printed = json::parse(r.out);
  const json expected = {{"path", "p.gpdp"},
                         {"data", "d.csv"},
                         {"grid2d", "0:1:3,0:1:4"},
                         {"out", "new.csv"},
                         {"ledger", "l.sqlite"},
                         {"crs", "EPSG:4326"},
                         {"insecure-seed", 18446744073709551615ULL}};
  EXPECT_EQ(printed, expected);  // --json is the CLI's, not the request's

  const release::QueryRequest q = commands::query_request_from_json(printed);
  EXPECT_EQ(q.path_file, "p.gpdp");
  EXPECT_EQ(q.data_path, "d.csv");
  EXPECT_EQ(q.out_csv, "new.csv");
  EXPECT_EQ(q.ledger_path, "l.sqlite");
  EXPECT_EQ(q.crs, "EPSG:4326");
  EXPECT_EQ(q.insecure_seed, 18446744073709551615ULL);
  EXPECT_EQ(q.key.kind, release::PathKey::Kind::None);
  const auto* grid = std::get_if<release::GridPoints>(&q.evaluation);
  ASSERT_NE(grid, nullptr);
  EXPECT_EQ(grid->grid.dim(), 2);
  EXPECT_EQ(grid->grid.size(), 12);

  const auto table = commands::command_options("query");
  EXPECT_TRUE(table.front().positional);
  EXPECT_EQ(options::key_of(table.front()), "path");
}

struct Refusal {
  json request;
  std::vector<std::string> parameters;
  std::string message;  // what the library says (Python's message, in keywords)
  std::string cli;      // the CLI's stderr for the same options
  std::string argv;
};

// Errors name parameters; the CLI spells them as its flags.
TEST(QueryRequest, ErrorsNameParametersAndTheCliSpellsThemAsFlags) {
  const json ok = {{"path", "p.gpdp"}, {"data", "d.csv"}, {"out", "o.csv"}};
  const auto with = [&](const json& more) {
    json j = ok;
    j.update(more);
    return j;
  };
  const std::string base = "query p.gpdp --data d.csv --out o.csv ";
  const std::vector<Refusal> refusals{
      {ok,
       {"points", "grid", "grid2d"},
       "give exactly one of points FILE, grid lo:hi:m, grid2d lo:hi:m,lo:hi:m",
       "give exactly one of --points FILE, --grid lo:hi:m, --grid2d lo:hi:m,lo:hi:m",
       ""},
      {with({{"grid", ""}}),  // an empty text is an option not given
       {"points", "grid", "grid2d"},
       "give exactly one of points FILE, grid lo:hi:m, grid2d lo:hi:m,lo:hi:m",
       "give exactly one of --points FILE, --grid lo:hi:m, --grid2d lo:hi:m,lo:hi:m",
       "--grid ''"},
      {with({{"grid2d", "0:1:5"}}),
       {"grid2d"},
       "grid2d needs two axes lo:hi:nx,lo:hi:ny",
       "--grid2d needs two axes lo:hi:nx,lo:hi:ny",
       "--grid2d 0:1:5"},
      {with({{"grid", "0:1:3,0:1:3"}}),
       {"grid"},
       "grid needs one axis lo:hi:m",
       "--grid needs one axis lo:hi:m",
       "--grid 0:1:3,0:1:3"},
      {with({{"grid", "0:1:3"}, {"path-key", "k"}, {"path-passphrase-env", "V"}}),
       {"path_key"},
       "path_key: give a key file or a passphrase variable, not both",
       "--path-key/--path-passphrase-env: give a key file or a passphrase variable, not both",
       "--grid 0:1:3 --path-key k --path-passphrase-env V"},
      {with({{"grid", "0:1:3"}, {"insecure-seed", -1}}),
       {"insecure_seed"},
       "insecure_seed: must be ≥ 0, got -1",
       "--insecure-seed: must be ≥ 0, got -1",
       "--grid 0:1:3 --insecure-seed -1"},
  };
  for (const auto& r : refusals) {
    try {
      commands::query_request_from_json(r.request);
      ADD_FAILURE() << "accepted " << r.request.dump();
    } catch (const InputError& e) {
      EXPECT_EQ(e.parameters(), r.parameters) << r.request.dump();
      EXPECT_EQ(std::string(e.what()), r.message);
    }
    const auto cli = run_cli(base + r.argv);
    EXPECT_EQ(cli.exit_code, 2) << r.argv;
    const bool seeded = r.argv.find("--insecure-seed") != std::string::npos;
    EXPECT_EQ(cli.err,
              (seeded ? "gpdp query: --insecure-seed: these answers are NOT PRIVATE\n" : "") +
                  ("gpdp: error: " + r.cli + "\n"));
  }
  EXPECT_THROW(commands::query_request_from_json(with({{"colour", "red"}})), InputError);
  // A hand-written request's badly typed value (the CLI's parser types them) names its parameter.
  try {
    commands::query_request_from_json(with({{"grid", "0:1:3"}, {"data", 3}}));
    ADD_FAILURE() << "accepted a number for data";
  } catch (const InputError& e) {
    EXPECT_EQ(e.parameters(), std::vector<std::string>{"data"});
    EXPECT_EQ(std::string(e.what()), "data: expected a string, got 3");
  }
}

// A seeded release on a 2-D grid, its path kept: the library's run answers it as the CLI does.
TEST(QueryRequest, RunIsWhatTheCliPrintsAndWrites) {
  TempDir dir;
  std::string csv = "lon,lat,value\n";
  for (int i = 0; i < 20; ++i)
    csv += fmt::format("{},{},{}\n", (i * 0.37) - static_cast<int>(i * 0.37),
                       (i * 0.61 + 0.05) - static_cast<int>(i * 0.61 + 0.05), (i % 5) * 0.4 - 0.8);
  write_text(dir.file("d.csv"), csv);
  write_text(dir.file("q.csv"), "lon,lat\n0.25,0.75\n0.5,0.5\n0.9,0.1\n");
  for (const char* name : {"a", "b"}) {
    const auto r = run_cli(fmt::format(
        "release --data {0} --x lon,lat --y value --domain 0:1,0:1 --kernel exp --ell 0.3 --r 3 "
        "--grid2d 0:1:6,0:1:5 --threshold 0 --delta 1e-3 --insecure-seed 7 --dataset d "
        "--ledger {1}/l-{2}.sqlite --keep-path {1}/p-{2}.gpdp --out {1}/release-{2}",
        dir.file("d.csv"), dir.path().string(), name));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto request = [&](const char* name) {
    return json{{"path", dir.file(fmt::format("p-{}.gpdp", name))},
                {"data", dir.file("d.csv")},
                {"points", dir.file("q.csv")},
                {"out", dir.file(fmt::format("{}.csv", name))},
                {"insecure-seed", 1}};
  };
  const auto outcome = commands::run_query_command(commands::query_request_from_json(request("a")));
  const auto cli = run_cli(fmt::format("query {} --data {} --points {} --out {} --insecure-seed 1",
                                       dir.file("p-b.gpdp"), dir.file("d.csv"), dir.file("q.csv"),
                                       dir.file("b.csv")));
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_EQ(cli.err, "gpdp query: --insecure-seed: these answers are NOT PRIVATE\n");
  EXPECT_EQ(read_text(dir.file("a.csv")), read_text(dir.file("b.csv")));
  EXPECT_EQ(outcome.report["points"], 3);
  EXPECT_EQ(outcome.report["budget_consumed"], 0);
  EXPECT_EQ(outcome.report["private"], false);
  const auto text = [&](const std::string& out, const std::string& ledger) {
    return fmt::format(
        "gpdp query → {}: 3 point(s) of 1 kept path(s), conditionally on earlier answers; no "
        "budget consumed (path {} in ledger {})\n",
        out, outcome.report["path_id"].get<std::string>(), ledger);
  };
  EXPECT_EQ(outcome.text, text(dir.file("a.csv"), dir.file("l-a.sqlite")));
  // The CLI's text and --json are the library's, for the same path.
  const std::string again = fmt::format("query {} --data {} --points {} --insecure-seed 2 ",
                                        dir.file("p-a.gpdp"), dir.file("d.csv"), dir.file("q.csv"));
  const auto cli_text = run_cli(again + "--out " + dir.file("a2.csv"));
  ASSERT_EQ(cli_text.exit_code, 0) << cli_text.err;
  EXPECT_EQ(cli_text.out, text(dir.file("a2.csv"), dir.file("l-a.sqlite")));
  json next = request("a");
  next["out"] = dir.file("a3.csv");
  next["insecure-seed"] = 2;
  const auto library = commands::run_query_command(commands::query_request_from_json(next));
  const auto cli_json = run_cli(again + "--out " + dir.file("a3.csv") + " --json");
  ASSERT_EQ(cli_json.exit_code, 0) << cli_json.err;
  EXPECT_EQ(cli_json.out, library.report.dump(2) + "\n");
}

}  // namespace
}  // namespace gpdp::test
