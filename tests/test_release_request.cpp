// gpdp release's one request (release/request_from_json.hpp): the CLI's --print-request and a
// batch manifest's entry are the same JSON for the same options, the reader's errors name
// parameters (the CLI spells them as flags, the manifest as its keys), and the request holds only
// the options given. python/tests/test_release.py checks Python's gpdp.release.request against
// the CLI.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/release/manifest.hpp"
#include "gpdp/release/request_from_json.hpp"
#include "support/error_parameters.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

// A release's options as request keys; the CLI gets them as flags.
const json kOptions = {{"data", "d.csv"},
                       {"x", json::array({"lon", "lat"})},
                       {"y", "pm10"},
                       {"domain", "0:1,0:1"},
                       {"M-Y", 2.0},
                       {"kernel", "matern32"},
                       {"ell", 0.25},
                       {"draws", 3},
                       {"delta", 1e-4},
                       {"threshold", 0.5},
                       {"prior-mean", "dp:0.2"},
                       {"target-epsilon", 2.0},
                       {"smooth", 0.1},
                       {"grid2d", "0:1:8,0:1:8"},
                       {"mask", "mask.csv"},
                       {"budget-orders", json::array({2.0, 8.0})},
                       {"budget-epsilon", 4.0},
                       {"budget-delta", 1e-3},
                       {"insecure-seed", 12345678901234567890ULL},
                       {"new-dataset-despite-overlap", true},
                       {"dataset", "north"},
                       {"out", "maps/north"}};

std::string flag_value(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out;
    for (const auto& item : v) out += (out.empty() ? "" : ",") + flag_value(item);
    return out;
  }
  return v.dump();
}

json cli_request(const json& options, const std::string& more) {
  std::string argv = "release";
  for (const auto& [key, value] : options.items())
    argv += " --" + key + (value.is_boolean() ? "" : " '" + flag_value(value) + "'");
  const auto r = run_cli(argv + more + " --print-request");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

TEST(ReleaseRequest, CliAndManifestMakeTheSameRequest) {
  const json printed = cli_request(kOptions, " --ledger l.sqlite");
  json expected = kOptions;
  expected["ledger"] = "l.sqlite";
  EXPECT_EQ(printed, expected);  // the options given, no defaults
  EXPECT_EQ(printed.dump(), expected.dump());

  json entry = kOptions;
  json defaults = json::object();
  for (const char* key : {"kernel", "ell", "delta"}) {  // from the defaults
    defaults[key] = entry[key];
    entry.erase(key);
  }
  const json manifest = {
      {"ledger", "l.sqlite"}, {"defaults", defaults}, {"releases", json::array({entry})}};
  const auto parsed = release::parse_manifest(manifest, "batch.json", "/base");
  ASSERT_EQ(parsed.requests.size(), 1u);
  EXPECT_EQ(parsed.requests[0].dump(), kOptions.dump());
  const auto& q = parsed.releases[0];
  EXPECT_EQ(q.data_path, "/base/d.csv");  // relative to the manifest's folder
  EXPECT_EQ(q.insecure_seed, 12345678901234567890ULL);
  EXPECT_EQ(q.budget_orders, (std::vector<double>{2.0, 8.0}));
  // The CLI's request read as it is: paths as given.
  const auto cli = release::release_request_from_json(printed);
  EXPECT_EQ(cli.data_path, "d.csv");
  EXPECT_EQ(cli.ledger_path, "l.sqlite");
  EXPECT_EQ(cli.draws, 3);
  EXPECT_EQ(cli.input.M_Y, 2.0);
  EXPECT_TRUE(cli.new_dataset_despite_overlap);
  ASSERT_TRUE(cli.prior_mean.has_value());
  EXPECT_EQ(cli.prior_mean->fraction, 0.2);
  EXPECT_EQ(std::get<release::GridPoints>(cli.evaluation).mask_file, "mask.csv");
}

// Absent options take their defaults in the reader: the grid mean solves its noise scale.
TEST(ReleaseRequest, DefaultsAreTheReaders) {
  json options = {{"data", "d.csv"},  {"domain", "0:1"},          {"delta", 1e-3},
                  {"threshold", 0.0}, {"grid", "0:1:9"},          {"dataset", "d"},
                  {"out", "o"},       {"mechanism", "grid-mean"}, {"target-epsilon", 1.0}};
  const auto q = release::release_request_from_json(options);
  ASSERT_TRUE(q.calibration.has_value());
  EXPECT_EQ(q.calibration->parameter, privacy::CalibrationParameter::Noise);
  EXPECT_EQ(q.mechanism.kind, privacy::MechanismKind::GridMean);
  EXPECT_EQ(q.vote_cutoff, 0.5);
  EXPECT_EQ(q.draws, 1);
  options["choose-fraction"] = 0.2;  // given: refused outside mechanism auto
  EXPECT_THROW(release::release_request_from_json(options), ParameterError);
}

std::vector<std::string> parameters_of_error(const json& request) {
  return test::parameters_of_error(
      [](const json& r) { return release::release_request_from_json(r); }, request);
}

// Errors name parameters; the CLI spells them as flags, the manifest as its keys.
TEST(ReleaseRequest, ErrorsNameParameters) {
  json options = {{"data", "d.csv"}, {"domain", "0:1"}, {"delta", 2.0}, {"threshold", 0.0},
                  {"grid", "0:1:9"}, {"dataset", "d"},  {"out", "o"}};
  EXPECT_EQ(parameters_of_error(options), std::vector<std::string>{"delta"});
  options["delta"] = 1e-3;
  options["grid2d"] = "0:1:3,0:1:3";
  EXPECT_EQ(parameters_of_error(options), std::vector<std::string>{"evaluation"});
  options.erase("grid2d");
  options["colour"] = "red";
  EXPECT_THROW(release::release_request_from_json(options), InputError);

  TempDir dir;
  const auto r = run_cli(
      "release --data d.csv --domain 0:1 --delta 1e-3 -t 0 --grid 0:1:9 --dataset d --out " +
      dir.file("o") + " --ledger " + dir.file("l.sqlite") + " --draws 0");
  EXPECT_EQ(r.err, "gpdp: error: --draws: must be ≥ 1, got 0\n");
  const json manifest = {{"releases", json::array({{{"data", "d.csv"},
                                                    {"domain", "0:1"},
                                                    {"delta", 1e-3},
                                                    {"threshold", 0.0},
                                                    {"dataset", "d"},
                                                    {"out", "o"}}})}};
  try {
    release::parse_manifest(manifest, "batch.json", "");
    ADD_FAILURE() << "no evaluation given";
  } catch (const ParameterError& e) {
    EXPECT_EQ(std::string(e.what()),
              "batch.json: releases[0] (dataset 'd'): 'points'/'grid'/'grid2d': give exactly one");
  }
}

}  // namespace
}  // namespace gpdp::test
