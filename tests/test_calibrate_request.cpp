// gpdp calibrate's one request (commands/calibrate.hpp): the CLI's --print-request is the options
// given as request keys (no defaults), the reader applies the table's defaults and its errors name
// parameters (the CLI spells them as flags), and the library's run is what the CLI prints.
// python/tests/test_calibrate.py checks Python's gpdp.calibrate against the CLI.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpdp/commands/calibrate.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/error.hpp"
#include "support/error_parameters.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;
using privacy::CalibrationParameter;

const json kOptions = {{"target-epsilon", 5.0},
                       {"solve", "sigma"},
                       {"kernel", "se"},
                       {"ell", 0.3},
                       {"dim", 2},
                       {"n", 200},
                       {"r", 5.0},
                       {"draws", 3},
                       {"delta", 1e-5},
                       {"conversion", "mironov"}};

std::string flag_value(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string argv_of(const json& options) {
  std::string argv = "calibrate";
  for (const auto& [key, value] : options.items()) argv += " --" + key + " " + flag_value(value);
  return argv;
}

TEST(CalibrateRequest, CliPrintsTheOptionsGivenAndTheReaderReadsThem) {
  const auto r = run_cli(argv_of(kOptions) + " --json --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json printed = json::parse(r.out);
  EXPECT_EQ(printed.dump(), kOptions.dump());  // --json is the CLI's, not the request's

  const auto c = commands::calibrate_request_from_json(printed);
  EXPECT_EQ(c.solve, CalibrationParameter::Sigma);
  EXPECT_EQ(c.target.epsilon, 5.0);
  EXPECT_EQ(c.target.delta, 1e-5);
  EXPECT_EQ(c.target.conversion, privacy::Conversion::Mironov);
  EXPECT_EQ(c.draws, 3);
  EXPECT_EQ(c.mechanism.n, 200);
  EXPECT_EQ(c.mechanism.dim, 2);
  EXPECT_EQ(c.mechanism.r, 5.0);
  EXPECT_EQ(c.mechanism.kernel->name(), Kernel::from_name("se", 0.3).name());
}

// Absent options take the table's defaults: the request with every default written is read as
// the one without them.
TEST(CalibrateRequest, DefaultsAreTheTables) {
  const json given = {{"target-epsilon", 2.0}, {"solve", "r"}, {"n", 50}, {"delta", 1e-5}};
  options::GivenOptions argv;
  for (const auto& [key, value] : given.items()) argv.push_back({"--" + key, {flag_value(value)}});
  const auto written = options::parse_options(commands::command_options("calibrate"), argv,
                                              options::RequestDefaults::Written);
  EXPECT_GT(written.request.size(), given.size());
  const auto c = commands::calibrate_request_from_json(given);
  EXPECT_EQ(c.draws, 1);
  EXPECT_EQ(c.target.conversion, privacy::Conversion::CKS);
  EXPECT_EQ(c.mechanism.kind, privacy::MechanismKind::PosteriorSample);
  EXPECT_EQ(c.mechanism.lemma, privacy::SensitivityLemma::B1Sharp);
  EXPECT_EQ(c.mechanism.M_Y, 1.0);
  EXPECT_EQ(c.mechanism.sigma, 1.0);
  EXPECT_EQ(c.mechanism.eta, 0.0);
  const auto from_written = commands::calibrate_request_from_json(written.request);
  EXPECT_EQ(commands::run_calibrate_command(c).report,
            commands::run_calibrate_command(from_written).report);
}

std::vector<std::string> parameters_of_error(const json& request) {
  return test::parameters_of_error(
      [](const json& r) { return commands::calibrate_request_from_json(r); }, request);
}

// Errors name parameters; the CLI spells them as flags.
TEST(CalibrateRequest, ErrorsNameParameters) {
  const json ok = {{"target-epsilon", 2.0}, {"solve", "r"}, {"n", 50}, {"delta", 1e-5}};
  EXPECT_NO_THROW(commands::calibrate_request_from_json(ok));
  const auto with = [&](const char* key, const json& value) {
    json j = ok;
    j[key] = value;
    return j;
  };
  EXPECT_EQ(parameters_of_error(with("target-epsilon", 0.0)),
            std::vector<std::string>{"target_epsilon"});
  EXPECT_EQ(parameters_of_error(with("solve", "ell")), std::vector<std::string>{"solve"});
  // Badly typed values of a hand-written request name their parameter.
  EXPECT_EQ(parameters_of_error(with("solve", 3)), std::vector<std::string>{"solve"});
  EXPECT_EQ(parameters_of_error(with("target-epsilon", "two")),
            std::vector<std::string>{"target_epsilon"});
  EXPECT_EQ(parameters_of_error(with("draws", 0)), std::vector<std::string>{"draws"});
  EXPECT_EQ(parameters_of_error(with("delta", 1.0)), std::vector<std::string>{"delta"});
  EXPECT_EQ(parameters_of_error(with("n", 0)), std::vector<std::string>{"n"});
  EXPECT_EQ(parameters_of_error(with("noise-scale", 1.0)),
            (std::vector<std::string>{"noise_scale", "mechanism"}));
  // Solving s needs no s to start from (1, replaced by the solution); solving another parameter
  // of a mechanism with a noise scale does.
  auto noise = with("mechanism", "functional");
  EXPECT_EQ(parameters_of_error(noise), (std::vector<std::string>{"noise_scale", "mechanism"}));
  noise["solve"] = "noise";
  EXPECT_EQ(commands::calibrate_request_from_json(noise).mechanism.noise_scale, 1.0);
  EXPECT_THROW(commands::calibrate_request_from_json(with("colour", "red")), InputError);

  const auto r = run_cli(argv_of(with("target-epsilon", -1.0)));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpdp: error: --target-epsilon must be positive, got -1\n");
}

// The library's run is what the CLI prints, with --json and without.
TEST(CalibrateRequest, RunIsWhatTheCliPrints) {
  const auto outcome =
      commands::run_calibrate_command(commands::calibrate_request_from_json(kOptions));
  const auto text = run_cli(argv_of(kOptions));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, outcome.text);
  const auto as_json = run_cli(argv_of(kOptions) + " --json");
  ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
  EXPECT_EQ(as_json.out, outcome.report.dump(2) + "\n");
}

}  // namespace
}  // namespace gpdp::test
