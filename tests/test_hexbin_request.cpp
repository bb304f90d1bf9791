// gpdp hexbin's one request (commands/hexbin.hpp): the CLI's --print-request is the options given
// as request keys (no defaults), the reader applies the table's defaults and validates the box,
// width and row filter with errors naming parameters (the CLI spells them as flags), and the
// library's run writes the file and says what the CLI prints. python/tests/test_hexbin_command.py
// checks Python's gpdp.hexbin against the CLI.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "gpdp/commands/command_options.hpp"
#include "gpdp/commands/hexbin.hpp"
#include "gpdp/error.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

// Two records in hexagon (1, 0) of a width-2 lattice, one in (2, 1), two of other years.
const char* kRecords =
    "px,py,price,year\n2.1,0.1,100,a\n1.9,0.2,1000,a\n4.9,1.7,10,a\n1,1,5,b\n3,3,0,c\n";

json request_in(const TempDir& dir) {
  return {{"data", dir.file("pts.csv")},
          {"x", "px"},
          {"y", "py"},
          {"value", "price"},
          {"log", true},
          {"where", "year=a"},
          {"box", "0:10,0:10"},
          {"cell-width", 2.0},
          {"out", dir.file("h.csv")}};
}

TEST(HexbinRequest, CliPrintsTheOptionsGivenAndTheReaderReadsThem) {
  TempDir dir;
  const json request = request_in(dir);
  const auto r = run_cli("hexbin --data " + dir.file("pts.csv") +
                         " --x px --y py --value price --log --where year=a --box 0:10,0:10"
                         " --cell-width 2 --out " +
                         dir.file("h.csv") + " --json --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), request);  // --json is the CLI's, not the request's
  EXPECT_FALSE(std::filesystem::exists(dir.file("h.csv")));  // printing runs nothing

  const auto c = commands::hexbin_request_from_json(request);
  EXPECT_EQ(c.x, "px");
  EXPECT_TRUE(c.log);
  EXPECT_EQ(c.box.to_string(), Box::parse("0:10,0:10").to_string());
  EXPECT_EQ(c.cell_width, 2.0);
  EXPECT_EQ(c.where_column, "year");
  EXPECT_EQ(c.where_values, (std::set<std::string>{"a"}));
}

TEST(HexbinRequest, DefaultsAreTheTables) {
  const json given = {
      {"data", "d.csv"}, {"value", "v"}, {"box", "0:1,0:1"}, {"cell-width", 0.5}, {"out", "o.csv"}};
  const auto c = commands::hexbin_request_from_json(given);
  EXPECT_EQ(c.x, "x");
  EXPECT_EQ(c.y, "y");
  EXPECT_FALSE(c.log);
  EXPECT_TRUE(c.where.empty());
  // A filter with several values keeps each (an empty value too).
  json several = given;
  several["where"] = "k=1,,2";
  EXPECT_EQ(commands::hexbin_request_from_json(several).where_values,
            (std::set<std::string>{"1", "", "2"}));
}

TEST(HexbinRequest, RunWritesTheCellsAndSaysWhatTheCliPrints) {
  TempDir dir;
  write_text(dir.file("pts.csv"), kRecords);
  const auto outcome =
      commands::run_hexbin_command(commands::hexbin_request_from_json(request_in(dir)));
  const std::string csv = read_text(dir.file("h.csv"));
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "column,row,x,y,u,v,median,count");
  EXPECT_EQ(outcome.report["cells"], 2);
  EXPECT_EQ(outcome.report["records_used"], 3);  // year b filtered out
  EXPECT_EQ(outcome.report["records_outside_box"], 0);
  EXPECT_EQ(outcome.report["where"], "year=a");
  // Hexagon (1, 0), centre (2, 0): median of log 100 and log 1000 over 2 records.
  const auto line = csv.find("\n1,0,2,0,");
  ASSERT_NE(line, std::string::npos) << csv;
  std::vector<std::string> fields;
  std::stringstream row(csv.substr(line + 1, csv.find('\n', line + 1) - line - 1));
  for (std::string f; std::getline(row, f, ',');) fields.push_back(f);
  ASSERT_EQ(fields.size(), 8u);
  EXPECT_NEAR(std::stod(fields[6]), 0.5 * (std::log(100.0) + std::log(1000.0)), 1e-12);
  EXPECT_EQ(fields[7], "2");

  const auto cli = run_cli("hexbin --data " + dir.file("pts.csv") +
                           " --x px --y py --value price --log --where year=a --box 0:10,0:10"
                           " --cell-width 2 --out " +
                           dir.file("h.csv"));
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_EQ(cli.out, outcome.text);
  const auto as_json = run_cli("hexbin --data " + dir.file("pts.csv") +
                               " --x px --y py --value price --log --where year=a --box 0:10,0:10"
                               " --cell-width 2 --out " +
                               dir.file("h.csv") + " --json");
  EXPECT_EQ(json::parse(as_json.out), outcome.report);
}
// Errors name parameters (the CLI spells them as flags) and leave no output behind.
TEST(HexbinRequest, ErrorsNameParameters) {
  TempDir dir;
  write_text(dir.file("pts.csv"), kRecords);
  const auto fails = [&](json change, const std::string& parameter, const std::string& message) {
    json request = request_in(dir);
    request.update(change);
    try {
      commands::run_hexbin_command(commands::hexbin_request_from_json(request));
      ADD_FAILURE() << change.dump() << " was accepted";
    } catch (const ParameterError& e) {
      EXPECT_EQ(e.parameters(), std::vector<std::string>{parameter}) << e.what();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("h.csv")));
  };
  fails({{"box", "0:10"}}, "box", "box needs two ranges");
  fails({{"cell-width", 0.0}}, "cell_width", "cell_width must be positive, got 0");
  fails({{"cell-width", "inf"}}, "cell_width", "cell_width must be positive, got inf");
  fails({{"cell-width", "wide"}}, "cell_width", "cell_width: expected a number");
  fails({{"where", "year"}}, "where", "where must look like COLUMN=VALUE");
  fails({{"where", "year=zz"}}, "where", "no records left after where year=zz");
  fails({{"box", "20:30,20:30"}}, "box", "every record lies outside box");
  fails({{"where", "year=c"}}, "log", "column 'price': log needs positive values, got 0");
  fails({{"data", 3}}, "data", "data: expected a string");
  EXPECT_THROW(commands::hexbin_request_from_json({{"colour", "red"}}), InputError);

  const auto cli = run_cli("hexbin --data " + dir.file("pts.csv") +
                           " --value price --box 0:10,0:10 --cell-width 2 --where year --out " +
                           dir.file("h.csv"));
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_NE(cli.err.find("--where must look like COLUMN=VALUE"), std::string::npos) << cli.err;
}

}  // namespace
}  // namespace gpdp::test
