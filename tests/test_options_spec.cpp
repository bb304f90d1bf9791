// The commands' options as data (options/option_spec.hpp, commands/command_options.hpp): the parser
// that both front ends call, the request structs built from its JSON, and the CLI's agreement with
// the spec (every option in --help with its default; the same argv makes the request the library
// builds). python/tests/test_distributed_options.py checks the Python front end against the CLI.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "gpdp/attack/attack_options.hpp"
#include "gpdp/attack/attack_run.hpp"
#include "gpdp/auditor/audit_run.hpp"
#include "gpdp/error.hpp"
#include "gpdp/lab/command_options.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/release/manifest.hpp"
#include "gpdp/release/release_options.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using options::OptionScope;
using options::OptionSpec;
using options::OptionType;

std::string error_of(const std::vector<OptionSpec>& specs, const options::GivenOptions& given) {
  try {
    options::parse_options(specs, given);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(OptionSpec, TypesTheTextsAndFillsInTheDefaults) {
  const std::vector<OptionSpec> specs{
      options::option("--count", OptionType::Integer, 3, "n"),
      options::option("--scale", OptionType::Real, 1.5, "s"),
      options::option("--name", OptionType::Text, nullptr, "t"),
      options::option("--orders", OptionType::RealList, nullptr, "a"),
      options::option("--verbose", OptionType::Flag, false, "v").in_scope(OptionScope::FrontEnd),
      options::option("--out-file", OptionType::Text, nullptr, "o").with_key("out_path")};
  auto p = options::parse_options(specs, {});
  EXPECT_EQ(p.request, (nlohmann::json{{"count", 3}, {"scale", 1.5}}));
  EXPECT_EQ(p.front_end, (nlohmann::json{{"verbose", false}}));
  p = options::parse_options(specs, {{"--count", {"4", "18446744073709551615"}},
                                     {"--scale", {"inf"}},
                                     {"--orders", {"1.5,2", "8"}},
                                     {"--verbose", {}},
                                     {"--out-file", {"a.csv"}}});
  EXPECT_EQ(p.request["count"].get<std::uint64_t>(), 18446744073709551615ULL);  // the last one
  EXPECT_EQ(p.request["scale"], "inf");  // JSON has no infinity
  EXPECT_EQ(p.request["orders"], (nlohmann::json{1.5, 2.0, 8.0}));
  EXPECT_EQ(p.request["out_path"], "a.csv");
  EXPECT_EQ(p.front_end["verbose"], true);
}

TEST(OptionSpec, ErrorsNameTheFlag) {
  const std::vector<OptionSpec> specs{
      options::option("--count", OptionType::Integer, 3, "n"),
      options::option("--delta", OptionType::Real, nullptr, "d").as_required()};
  EXPECT_EQ(error_of(specs, {{"--delta", {"0.1"}}, {"--count", {"1.5"}}}),
            "--count: expected a whole number, got '1.5'");
  EXPECT_EQ(error_of(specs, {{"--delta", {"nan"}}}), "--delta: expected a number, got 'nan'");
  EXPECT_EQ(error_of(specs, {{"--delta", {"0.1x"}}}), "--delta: expected a number, got '0.1x'");
  EXPECT_EQ(error_of(specs, {}), "--delta is required");
  EXPECT_EQ(error_of(specs, {{"--delta", {"0.1"}}, {"--seed", {"1"}}}), "unknown option '--seed'");
}

// The spec's defaults are the request struct's: a request made of defaults only is the default
// request, and a key the spec does not list is refused by the struct's reader.
TEST(OptionSpec, AttackDefaultsAreTheRequestDefaults) {
  const auto parsed = options::parse_options(attack::attack_options(), {});
  EXPECT_EQ(attack::attack_request_from_json(parsed.request), attack::AttackRequest{});
  auto with_sigma = parsed.request;
  with_sigma["sigma"] = "inf";
  EXPECT_TRUE(std::isinf(attack::attack_request_from_json(with_sigma).sigma));
  EXPECT_THROW(attack::attack_request_from_json({{"threads", 2}}), InputError);
}

TEST(OptionSpec, AuditDefaultsAreTheRequestDefaults) {
  const auto parsed =
      options::parse_options(auditor::audit_options(), {{"--n", {"3"}}, {"--delta", {"1e-5"}}});
  const auto a = auditor::audit_request_from_json(parsed.request);
  const auditor::AuditRequest d;
  EXPECT_EQ(a.mechanism.n, 3);
  EXPECT_EQ(a.settings.delta, 1e-5);
  EXPECT_EQ(a.mechanism.kernel, d.mechanism.kernel);
  EXPECT_EQ(a.mechanism.M_Y, d.mechanism.M_Y);
  EXPECT_TRUE(std::isnan(a.mechanism.kappa));                  // no default: from the kernel
  EXPECT_EQ(a.settings.conversion, privacy::Conversion::CKS);  // the CLI's default
  EXPECT_EQ(a.settings.restarts, d.settings.restarts);
  EXPECT_EQ(a.settings.max_evals, d.settings.max_evals);
  EXPECT_EQ(a.settings.continuation, d.settings.continuation);
  EXPECT_EQ(a.settings.sensitivity, d.settings.sensitivity);
  EXPECT_EQ(a.settings.seed, d.settings.seed);
  EXPECT_TRUE(a.settings.alphas.empty());
  const auto off = options::parse_options(auditor::audit_options(), {{"--n", {"3"}},
                                                                     {"--delta", {"1e-5"}},
                                                                     {"--no-continuation", {}},
                                                                     {"--alpha", {"1.5,2"}},
                                                                     {"--evals", {"40"}}});
  const auto b = auditor::audit_request_from_json(off.request);
  EXPECT_FALSE(b.settings.continuation);
  EXPECT_TRUE(b.settings.sensitivity);
  EXPECT_EQ(b.settings.alphas, (std::vector<double>{1.5, 2.0}));
  EXPECT_EQ(b.settings.max_evals, 40);
  EXPECT_THROW(auditor::audit_request_from_json({{"quiet", true}}), InputError);
}

// A text that each option's type accepts.
std::string sample_value(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::Integer:
      return "7";
    case OptionType::Real:
      return "0.25";
    case OptionType::RealList:
      return "1.5,2";
    case OptionType::TextList:
      return "a,b";
    default:
      return "some-text";
  }
}

class CommandOptions : public ::testing::TestWithParam<std::string> {};

// `gpdp COMMAND ARGS`, or `gpdp-lab COMMAND ARGS` for the research tools.
CommandResult run_command(const std::string& command, const std::string& args) {
  const bool lab = command == "attack" || command == "audit" || command == "audit-study" ||
                   command == "curves" || command == "ops" || command == "reproduce";
  return lab ? run_lab_cli(command + args) : run_cli(command + args);
}

// `gpdp[-lab] <command> --help` names every option (and alias) of `specs` with its default.
void expect_help_lists(const std::string& command, const std::vector<OptionSpec>& specs) {
  const auto r = run_command(command, " --help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& spec : specs) {
    EXPECT_NE(r.out.find(spec.flag), std::string::npos) << spec.flag;
    if (!spec.alias.empty()) {
      EXPECT_NE(r.out.find(spec.alias + ","), std::string::npos);
    }
    const auto shown = options::default_text(spec);
    if (!shown.empty()) {
      EXPECT_NE(r.out.find(spec.flag + " " + options::type_name(spec.type) + "=" + shown),
                std::string::npos)
          << command << " " << spec.flag << " default " << shown;
    }
  }
}

TEST_P(CommandOptions, HelpListsEveryOptionWithItsDefault) {
  expect_help_lists(GetParam(), lab::command_options(GetParam()));
}

// Every option given (by its alias where it has one): the CLI's request is the library parser's.
TEST_P(CommandOptions, CliBuildsTheRequestOfTheSpec) {
  // gpdp release's, preview's, query's, sample's and posterior's options exclude one another
  // (--points/--grid/--grid2d, --config-from) and their requests hold only the options given:
  // checked in test_release_request.cpp, test_preview_request.cpp and test_<command>_request.cpp.
  const std::set<std::string> exclusive = {"release", "preview", "query", "sample", "posterior"};
  if (exclusive.count(GetParam())) GTEST_SKIP();
  const auto specs = lab::command_options(GetParam());
  std::string argv;
  options::GivenOptions given;
  for (const auto& spec : specs) {
    if (spec.flag == "--print-request") continue;
    const std::string value = spec.type == OptionType::Flag ? "" : sample_value(spec);
    // A positional argument is its value alone.
    argv += spec.positional ? " " + value
                            : " " + (spec.alias.empty() ? spec.flag : spec.alias) + " " + value;
    given.emplace_back(
        spec.flag, value.empty() ? std::vector<std::string>{} : std::vector<std::string>{value});
  }
  const auto r = run_command(GetParam(), argv + " --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out), options::parse_options(specs, given).request);
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, CommandOptions, ::testing::ValuesIn(lab::option_commands()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (auto& c : name)
                             if (c == '-' || c == ' ') c = '_';
                           return name;
                         });

// gpdp release's flags and the batch manifest's keys are one list (release/release_options.hpp):
// the CLI shows every option with its default, a manifest accepts every option but the CLI's own
// and those that mean nothing in a batch, and refuses those by name with a reason.
TEST(ReleaseOptions, CliAndManifestShareTheList) {
  const auto specs = release::release_options();
  expect_help_lists("release", specs);
  const std::set<std::string> refused = {
      "keep-path", "internal-eval",       "ledger", "ledger-key",       "config-from", "json",
      "path-key",  "path-passphrase-env", "lemma",  "refuse-if-useless"};
  for (const auto& spec : specs) {
    const std::string key = options::key_of(spec);
    const nlohmann::json manifest = {
        {"defaults", {{key, "x"}}},
        {"releases", nlohmann::json::array({nlohmann::json::object()})}};
    std::string message;
    try {
      release::parse_manifest(manifest, "batch.json", "");
    } catch (const Error& e) {
      message = e.what();
    }
    EXPECT_EQ(spec.scope == OptionScope::Cli, key == "json") << key;
    if (refused.count(key) == 1) {
      EXPECT_NE(message.find("'" + key + "' is not available in a batch: "), std::string::npos)
          << message;
    } else {
      EXPECT_EQ(message.find("unknown option"), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace gpdp::test
