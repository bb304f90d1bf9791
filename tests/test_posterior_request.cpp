// gpdp posterior's one request (commands/posterior.hpp): the CLI's --print-request is the options
// given as request keys (no defaults), the reader applies the table's defaults and its errors name
// parameters (the CLI spells them as flags), and the library's run is what the CLI prints and
// writes. python/tests/test_posterior.py checks Python's gpdp.posterior against the CLI.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpdp/commands/command_options.hpp"
#include "gpdp/commands/posterior.hpp"
#include "gpdp/error.hpp"
#include "support/error_parameters.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

const char* kTrain = "x1,y\n0.05,0.8\n0.2,1.3\n0.35,2.4\n0.5,0.9\n0.65,3.6\n0.8,1.1\n";

std::string flag_value(const json& v) {
  if (v.is_boolean()) return "";
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string argv_of(const json& options) {
  std::string argv = "posterior";
  for (const auto& [key, value] : options.items()) argv += " --" + key + " " + flag_value(value);
  return argv;
}

json options_in(const TempDir& dir) {
  write_text(dir.file("train.csv"), kTrain);
  return {{"data", dir.file("train.csv")},
          {"kernel", "matern32"},
          {"ell", 0.3},
          {"r", 0.5},
          {"eta", 0.2},
          {"grid", "0:1:6"},
          {"transform", "log"},
          {"center", 0.5},
          {"scale", 2.0},
          {"M-Y", 1.5},
          {"threshold", 1.2},
          {"out", dir.file("post.csv")}};
}

TEST(PosteriorRequest, CliPrintsTheOptionsGivenAndTheReaderReadsThem) {
  TempDir dir;
  json given = options_in(dir);
  given["sign"] = true;
  const auto r = run_cli(argv_of(given) + " --json --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json printed = json::parse(r.out);
  EXPECT_EQ(printed.dump(), given.dump());  // --json is the CLI's, not the request's

  const auto c = commands::posterior_request_from_json(printed);
  EXPECT_EQ(c.out, dir.file("post.csv"));
  EXPECT_EQ(c.threshold, std::optional<double>(1.2));
  ASSERT_TRUE(c.input.has_value());
  EXPECT_EQ(c.input->transform, release::ResponseTransform::Log);
  EXPECT_EQ(c.input->center, std::optional<double>(0.5));
  EXPECT_EQ(c.input->scale, std::optional<double>(2.0));
  EXPECT_EQ(c.input->M_Y, 1.5);
  EXPECT_TRUE(c.input->sign);
  EXPECT_EQ(c.query.kernel.name(), Kernel::from_name("matern32", 0.3).name());
  EXPECT_EQ(c.query.theta.r, 0.5);
  EXPECT_EQ(c.query.eta, 0.2);
}

// Absent options take the table's defaults; the responses are transformed only when one of the
// transform's options is given (a default written out counts as given, as on the command line).
TEST(PosteriorRequest, DefaultsAreTheTables) {
  const json given = {{"data", "train.csv"}, {"grid", "0:1:5"}, {"out", "o.csv"}};
  options::GivenOptions argv;
  for (const auto& [key, value] : given.items()) argv.push_back({"--" + key, {flag_value(value)}});
  const auto written = options::parse_options(commands::command_options("posterior"), argv,
                                              options::RequestDefaults::Written);
  EXPECT_GT(written.request.size(), given.size());
  const auto c = commands::posterior_request_from_json(given);
  EXPECT_FALSE(c.input.has_value());
  EXPECT_FALSE(c.threshold.has_value());
  EXPECT_EQ(c.query.kernel.name(), Kernel::from_name("exp", 1.0).name());
  EXPECT_EQ(c.query.theta.r, 1.0);
  EXPECT_EQ(c.query.theta.sigma, 1.0);
  const auto w = commands::posterior_request_from_json(written.request);
  ASSERT_TRUE(w.input.has_value());  // the identity transform, clipped to ±1
  EXPECT_EQ(w.input->M_Y, 1.0);
  EXPECT_EQ(w.input->transform, release::ResponseTransform::None);
}

std::vector<std::string> parameters_of_error(const json& request) {
  return test::parameters_of_error(
      [](const json& r) { return commands::posterior_request_from_json(r); }, request);
}

// Errors name parameters; the CLI spells them as flags, with the messages it always printed.
TEST(PosteriorRequest, ErrorsNameParameters) {
  const json ok = {{"data", "train.csv"}, {"grid", "0:1:5"}, {"out", "o.csv"}};
  EXPECT_NO_THROW(commands::posterior_request_from_json(ok));
  const auto with = [&](const char* key, const json& value) {
    json j = ok;
    j[key] = value;
    return j;
  };
  EXPECT_EQ(parameters_of_error(with("out", "")), std::vector<std::string>{"out"});
  EXPECT_EQ(parameters_of_error(with("threshold", "inf")), std::vector<std::string>{"threshold"});
  EXPECT_EQ(parameters_of_error(with("M-Y", 0.0)), std::vector<std::string>{"M_Y"});
  EXPECT_EQ(parameters_of_error(with("scale", -1.0)), std::vector<std::string>{"scale"});
  EXPECT_EQ(parameters_of_error(with("r", 0.0)), std::vector<std::string>{"r"});
  EXPECT_EQ(parameters_of_error(with("sigma", 0.0)), std::vector<std::string>{"sigma"});
  // The transform is checked before θ, as the CLI always did.
  json both = with("M-Y", 0.0);
  both["r"] = -1.0;
  EXPECT_EQ(parameters_of_error(both), std::vector<std::string>{"M_Y"});
  EXPECT_THROW(commands::posterior_request_from_json(with("transform", "sqrt")), InputError);
  EXPECT_THROW(commands::posterior_request_from_json(with("colour", "red")), InputError);

  TempDir dir;
  write_text(dir.file("neg.csv"), "x1,y\n0.1,1\n0.2,-3\n");
  const std::string base =
      "posterior --data " + dir.file("neg.csv") + " --grid 0:1:5 --out " + dir.file("o.csv");
  const auto my = run_cli(base + " --M-Y 0");
  EXPECT_EQ(my.exit_code, 2);
  EXPECT_EQ(my.err, "gpdp: error: --M-Y must be positive\n");
  const auto log = run_cli(base + " --transform log");
  EXPECT_EQ(log.exit_code, 2);
  EXPECT_EQ(log.err, "gpdp: error: --transform log needs positive responses, got -3\n");
  const auto t = run_cli(base + " --threshold inf");
  EXPECT_EQ(t.err, "gpdp: error: --threshold must be a finite number\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("o.csv")));
}

// The library's run is what the CLI prints and writes, with --json and without.
TEST(PosteriorRequest, RunIsWhatTheCliPrintsAndWrites) {
  TempDir dir;
  json given = options_in(dir);
  given["out"] = dir.file("lib.csv");
  const auto outcome =
      commands::run_posterior_command(commands::posterior_request_from_json(given));
  const std::string written = read_text(dir.file("lib.csv"));
  EXPECT_EQ(written.substr(0, written.find('\n')), "x1,mean,variance,p_exceed");

  given["out"] = dir.file("cli.csv");
  const auto text = run_cli(argv_of(given));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.err, "");
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
}

}  // namespace
}  // namespace gpdp::test
