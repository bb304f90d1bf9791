// gpdp account's one request (commands/account.hpp): the CLI's --print-request is the options
// given as request keys (no defaults), the reader applies the table's defaults and its errors name
// parameters (the CLI spells them as flags), and the library's run is what the CLI prints.
// python/tests/test_account.py checks Python's gpdp.account against the CLI.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpdp/commands/account.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/error.hpp"
#include "support/error_parameters.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

const json kOptions = {
    {"kernel", "se"}, {"ell", 0.3}, {"r", 5.0},   {"sigma", 2.0},  {"n", 200},
    {"dim", 2},       {"M-Y", 2.0}, {"draws", 3}, {"delta", 1e-5}, {"conversion", "mironov"}};

std::string flag_value(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string argv_of(const json& options) {
  std::string argv = "account";
  for (const auto& [key, value] : options.items()) argv += " --" + key + " " + flag_value(value);
  return argv;
}

TEST(AccountRequest, CliPrintsTheOptionsGivenAndTheReaderReadsThem) {
  const auto r = run_cli(argv_of(kOptions) + " --json --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json printed = json::parse(r.out);
  EXPECT_EQ(printed.dump(), kOptions.dump());  // --json is the CLI's, not the request's

  const auto c = commands::account_request_from_json(printed);
  EXPECT_EQ(c.accounting.draws, 3);
  EXPECT_EQ(c.accounting.delta, 1e-5);
  EXPECT_EQ(c.accounting.conversion, privacy::Conversion::Mironov);
  EXPECT_EQ(c.mechanism.n, 200);
  EXPECT_EQ(c.mechanism.dim, 2);
  EXPECT_EQ(c.mechanism.r, 5.0);
  EXPECT_EQ(c.mechanism.sigma, 2.0);
  EXPECT_EQ(c.mechanism.M_Y, 2.0);
  EXPECT_EQ(c.mechanism.kernel->name(), Kernel::from_name("se", 0.3).name());
}

// Absent options take the table's defaults: the request with every default written is read as
// the one without them.
TEST(AccountRequest, DefaultsAreTheTables) {
  const json given = {{"n", 50}, {"delta", 1e-5}};
  options::GivenOptions argv;
  for (const auto& [key, value] : given.items()) argv.push_back({"--" + key, {flag_value(value)}});
  const auto written = options::parse_options(commands::command_options("account"), argv,
                                              options::RequestDefaults::Written);
  EXPECT_GT(written.request.size(), given.size());
  const auto c = commands::account_request_from_json(given);
  EXPECT_EQ(c.accounting.draws, 1);
  EXPECT_EQ(c.accounting.conversion, privacy::Conversion::CKS);
  EXPECT_EQ(c.mechanism.kind, privacy::MechanismKind::PosteriorSample);
  EXPECT_EQ(c.mechanism.lemma, privacy::SensitivityLemma::B1Sharp);
  EXPECT_EQ(c.mechanism.kernel->name(), Kernel::from_name("exp", 1.0).name());
  EXPECT_EQ(c.mechanism.M_Y, 1.0);
  EXPECT_EQ(c.mechanism.r, 1.0);
  EXPECT_EQ(c.mechanism.sigma, 1.0);
  EXPECT_EQ(c.mechanism.eta, 0.0);
  const auto from_written = commands::account_request_from_json(written.request);
  EXPECT_EQ(commands::run_account_command(c).report,
            commands::run_account_command(from_written).report);
}

std::vector<std::string> parameters_of_error(const json& request) {
  return test::parameters_of_error(
      [](const json& r) { return commands::account_request_from_json(r); }, request);
}

// Errors name parameters; the CLI spells them as flags.
TEST(AccountRequest, ErrorsNameParameters) {
  const json ok = {{"n", 50}, {"delta", 1e-5}};
  EXPECT_NO_THROW(commands::account_request_from_json(ok));
  const auto with = [&](const char* key, const json& value) {
    json j = ok;
    j[key] = value;
    return j;
  };
  EXPECT_EQ(parameters_of_error(with("draws", 0)), std::vector<std::string>{"draws"});
  EXPECT_EQ(parameters_of_error(with("delta", 1.0)), std::vector<std::string>{"delta"});
  EXPECT_EQ(parameters_of_error(with("n", 0)), std::vector<std::string>{"n"});
  EXPECT_EQ(parameters_of_error(with("r", 0.0)), std::vector<std::string>{"r"});
  EXPECT_EQ(parameters_of_error(with("Vn", -1.0)), std::vector<std::string>{"Vn"});
  EXPECT_EQ(parameters_of_error(with("noise-scale", 1.0)),
            (std::vector<std::string>{"noise_scale", "mechanism"}));
  EXPECT_EQ(parameters_of_error(with("mechanism", "functional")),
            (std::vector<std::string>{"noise_scale", "mechanism"}));
  EXPECT_EQ(parameters_of_error(with("sensitivity", "b8")),
            (std::vector<std::string>{"rkhs_norm", "sensitivity"}));
  // The mechanism is checked before the accounting (the order the CLI always had).
  json both = with("draws", 0);
  both["r"] = 0.0;
  EXPECT_EQ(parameters_of_error(both), std::vector<std::string>{"r"});
  EXPECT_THROW(commands::account_request_from_json(with("colour", "red")), InputError);
  // A hand-written request's badly typed value names its parameter (the CLI's parser types them).
  EXPECT_EQ(parameters_of_error(with("ell", "wide")), std::vector<std::string>{"ell"});
  EXPECT_EQ(parameters_of_error(with("M-Y", true)), std::vector<std::string>{"M_Y"});
  EXPECT_EQ(parameters_of_error(with("kernel", 3)), std::vector<std::string>{"kernel"});
  EXPECT_EQ(parameters_of_error(with("draws", 1.5)), std::vector<std::string>{"draws"});
  EXPECT_EQ(parameters_of_error(with("dim", 1LL << 40)), std::vector<std::string>{"dim"});
  EXPECT_EQ(parameters_of_error(with("conversion", 1)), std::vector<std::string>{"conversion"});
  try {
    commands::account_request_from_json(with("n", "fifty"));
    ADD_FAILURE() << "accepted a text for n";
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()), "n: expected an integer, got \"fifty\"");
  }
  EXPECT_NO_THROW(commands::account_request_from_json(with("sigma", "inf")));

  const auto draws = run_cli("account --n 10 --delta 1e-5 -L 0");
  EXPECT_EQ(draws.exit_code, 2);
  EXPECT_EQ(draws.err, "gpdp: error: --draws must be ≥ 1, got 0\n");
  const auto noise = run_cli("account --n 10 --delta 1e-5 --noise-scale 1");
  EXPECT_EQ(noise.exit_code, 2);
  EXPECT_EQ(noise.err,
            "gpdp: error: --noise-scale belongs to --mechanism functional or grid-mean\n");
}

// The library's run is what the CLI prints, with --json and without, and its note is the CLI's
// stderr note.
TEST(AccountRequest, RunIsWhatTheCliPrints) {
  const auto outcome = commands::run_account_command(commands::account_request_from_json(kOptions));
  EXPECT_EQ(outcome.note, "");
  const auto text = run_cli(argv_of(kOptions));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, outcome.text);
  EXPECT_EQ(text.err, "");
  const auto as_json = run_cli(argv_of(kOptions) + " --json");
  ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
  EXPECT_EQ(as_json.out, outcome.report.dump(2) + "\n");

  const json clamped = {{"n", 10}, {"r", 1000}, {"delta", 0.5}};
  const auto noted = commands::run_account_command(commands::account_request_from_json(clamped));
  EXPECT_NE(noted.note, "");
  const auto cli = run_cli(argv_of(clamped));
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_EQ(cli.err, "gpdp: note: " + noted.note + "\n");
  EXPECT_EQ(cli.out, noted.text);
}

}  // namespace
}  // namespace gpdp::test
