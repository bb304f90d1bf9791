// gpdp sample's one request (commands/sample.hpp): the CLI's --print-request is the options given
// as request keys (no defaults), the reader applies the table's defaults and its errors name
// parameters (the CLI spells them as flags), and the library's run is what the CLI prints and
// writes. python/tests/test_sample.py checks Python's gpdp.sample against the CLI.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpdp/commands/command_options.hpp"
#include "gpdp/commands/sample.hpp"
#include "gpdp/error.hpp"
#include "support/error_parameters.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

const char* kTrain = "x1,y\n0.05,-0.8\n0.2,-0.3\n0.35,0.4\n0.5,0.9\n0.65,0.6\n0.8,-0.1\n";

std::string flag_value(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string argv_of(const json& options) {
  std::string argv = "sample";
  for (const auto& [key, value] : options.items()) argv += " --" + key + " " + flag_value(value);
  return argv;
}

json options_in(const TempDir& dir) {
  write_text(dir.file("train.csv"), kTrain);
  return {{"data", dir.file("train.csv")},
          {"kernel", "se"},
          {"ell", 0.3},
          {"r", 0.5},
          {"sigma", 2.0},
          {"eta", 0.1},
          {"grid", "0:1:7"},
          {"draws", 3},
          {"seed", 42},
          {"method", "dense"},
          {"out", dir.file("draws.csv")}};
}

TEST(SampleRequest, CliPrintsTheOptionsGivenAndTheReaderReadsThem) {
  TempDir dir;
  const json given = options_in(dir);
  const auto r = run_cli(argv_of(given) + " --json --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json printed = json::parse(r.out);
  EXPECT_EQ(printed.dump(), given.dump());  // --json is the CLI's, not the request's
  EXPECT_EQ(r.err, "");                     // nothing drawn, no seeded-draw warning

  const auto c = commands::sample_request_from_json(printed);
  EXPECT_EQ(c.draws, 3);
  EXPECT_EQ(c.seed, std::optional<std::uint64_t>(42));
  EXPECT_EQ(c.method, SamplerMethod::Dense);
  EXPECT_EQ(c.out, dir.file("draws.csv"));
  EXPECT_EQ(c.query.data, dir.file("train.csv"));
  EXPECT_EQ(c.query.kernel.name(), Kernel::from_name("se", 0.3).name());
  EXPECT_EQ(c.query.theta.r, 0.5);
  EXPECT_EQ(c.query.theta.sigma, 2.0);
  EXPECT_EQ(c.query.eta, 0.1);
  EXPECT_EQ(c.query.grid, "0:1:7");
}

// Absent options take the table's defaults: the request with every default written is read as
// the one without them.
TEST(SampleRequest, DefaultsAreTheTables) {
  const json given = {{"data", "train.csv"}, {"grid", "0:1:5"}, {"out", "o.csv"}};
  options::GivenOptions argv;
  for (const auto& [key, value] : given.items()) argv.push_back({"--" + key, {flag_value(value)}});
  const auto written = options::parse_options(commands::command_options("sample"), argv,
                                              options::RequestDefaults::Written);
  EXPECT_GT(written.request.size(), given.size());
  for (const auto& request : {given, written.request}) {
    const auto c = commands::sample_request_from_json(request);
    EXPECT_EQ(c.draws, 1);
    EXPECT_FALSE(c.seed.has_value());
    EXPECT_EQ(c.method, SamplerMethod::Auto);
    EXPECT_EQ(c.query.kernel.name(), Kernel::from_name("exp", 1.0).name());
    EXPECT_EQ(c.query.theta.r, 1.0);
    EXPECT_EQ(c.query.theta.sigma, 1.0);
    EXPECT_EQ(c.query.eta, 0.0);
    EXPECT_EQ(c.query.y, "y");
    EXPECT_TRUE(c.query.x.empty());
  }
}

std::vector<std::string> parameters_of_error(const json& request) {
  return test::parameters_of_error(
      [](const json& r) { return commands::sample_request_from_json(r); }, request);
}

// Errors name parameters; the CLI spells them as flags, with the messages it always printed.
TEST(SampleRequest, ErrorsNameParameters) {
  const json ok = {{"data", "train.csv"}, {"grid", "0:1:5"}, {"out", "o.csv"}};
  EXPECT_NO_THROW(commands::sample_request_from_json(ok));
  const auto with = [&](const char* key, const json& value) {
    json j = ok;
    j[key] = value;
    return j;
  };
  EXPECT_EQ(parameters_of_error(with("draws", 0)), std::vector<std::string>{"draws"});
  EXPECT_EQ(parameters_of_error(with("out", "")), std::vector<std::string>{"out"});
  EXPECT_EQ(parameters_of_error(with("r", 0.0)), std::vector<std::string>{"r"});
  EXPECT_EQ(parameters_of_error(with("sigma", -1.0)), std::vector<std::string>{"sigma"});
  EXPECT_EQ(parameters_of_error(with("eta", -1.0)), std::vector<std::string>{"eta"});
  EXPECT_EQ(parameters_of_error(with("seed", -1)), std::vector<std::string>{"seed"});
  // draws is checked first, as the CLI always did.
  json both = with("draws", 0);
  both["r"] = 0.0;
  EXPECT_EQ(parameters_of_error(both), std::vector<std::string>{"draws"});
  EXPECT_THROW(commands::sample_request_from_json(with("method", "magic")), InputError);
  EXPECT_THROW(commands::sample_request_from_json(with("kernel", "foo")), InputError);
  EXPECT_THROW(commands::sample_request_from_json(with("colour", "red")), InputError);

  TempDir dir;
  write_text(dir.file("train.csv"), kTrain);
  const std::string base = "sample --data " + dir.file("train.csv") + " --out " + dir.file("o.csv");
  const auto draws = run_cli(base + " --grid 0:1:5 --draws 0");
  EXPECT_EQ(draws.exit_code, 2);
  EXPECT_EQ(draws.err, "gpdp: error: --draws must be ≥ 1, got 0\n");
  const auto none = run_cli(base);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err,
            "gpdp: error: give exactly one of --points FILE, --grid lo:hi:m, --grid2d "
            "lo:hi:m,lo:hi:m\n");
  const auto axes = run_cli(base + " --grid 0:1:3,0:1:3");
  EXPECT_EQ(axes.err, "gpdp: error: --grid needs one axis lo:hi:m\n");
  const auto axis = run_cli(base + " --grid2d 0:1:3");
  EXPECT_EQ(axis.err, "gpdp: error: --grid2d needs two axes lo:hi:nx,lo:hi:ny\n");
  const auto two = run_cli(base + " --grid 0:1:3 --points q.csv");
  EXPECT_NE(two.exit_code, 0);
  EXPECT_NE(two.err.find("--points excludes --grid"), std::string::npos) << two.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("o.csv")));
}

// The library's run is what the CLI prints and writes, with --json and without; a seeded run
// calls back before the draw, where the CLI warns that it is NOT private.
TEST(SampleRequest, RunIsWhatTheCliPrintsAndWrites) {
  TempDir dir;
  json given = options_in(dir);
  given["out"] = dir.file("lib.csv");
  std::uint64_t warned = 0;
  const auto outcome = commands::run_sample_command(commands::sample_request_from_json(given),
                                                    [&](std::uint64_t seed) { warned = seed; });
  EXPECT_EQ(warned, 42u);
  const std::string written = read_text(dir.file("lib.csv"));

  given["out"] = dir.file("cli.csv");
  const auto text = run_cli(argv_of(given));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.err,
            "gpdp sample: seeded draw (--seed 42): reproducible and NOT private; omit --seed for "
            "a release\n");
  EXPECT_EQ(read_text(dir.file("cli.csv")), written);
  const auto as_json = run_cli(argv_of(given) + " --json");
  ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
  json report = outcome.report;
  report["out"] = dir.file("cli.csv");
  EXPECT_EQ(as_json.out, report.dump(2) + "\n");
  std::string expected = outcome.text;
  expected.replace(expected.find(dir.file("lib.csv")), dir.file("lib.csv").size(),
                   dir.file("cli.csv"));
  EXPECT_EQ(text.out, expected);

  // Without a seed: the secure generator, no call back.
  given.erase("seed");
  bool called = false;
  const auto secure = commands::run_sample_command(commands::sample_request_from_json(given),
                                                   [&](std::uint64_t) { called = true; });
  EXPECT_FALSE(called);
  EXPECT_TRUE(secure.report["private_rng"].get<bool>());
}

}  // namespace
}  // namespace gpdp::test
