// gpdp preview's one request (preview/request_from_json.hpp): the CLI's --print-request is the
// options given as request keys (no defaults), the reader applies the table's defaults, reads the
// input and evaluation as gpdp release's reader does, and its errors name parameters (the CLI
// spells them as flags). python/tests/test_preview.py checks Python's gpdp.preview.request against
// the CLI.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/preview/request_from_json.hpp"
#include "support/error_parameters.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

const json kOptions = {{"x", json::array({"lon", "lat"})},
                       {"domain", "0:1,0:1"},
                       {"M-Y", 2.0},
                       {"kernel", "matern32"},
                       {"ell", 0.25},
                       {"grid2d", "0:1:8,0:1:8"},
                       {"mask", "mask.csv"},
                       {"threshold", 0.5},
                       {"delta", 1e-4},
                       {"n", 155},
                       {"epsilons", json::array({1.0, 3.0})},
                       {"draws-grid", json::array({1.0, 5.0})},
                       {"no-functional", true},
                       {"seed", 12345678901234567890ULL},
                       {"out", "prev"}};

std::string flag_value(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out;
    for (const auto& item : v) out += (out.empty() ? "" : ",") + flag_value(item);
    return out;
  }
  return v.dump();
}

TEST(PreviewRequest, CliPrintsTheOptionsGivenAndTheReaderReadsThem) {
  std::string argv = "preview";
  for (const auto& [key, value] : kOptions.items())
    argv += " --" + key + (value.is_boolean() ? "" : " '" + flag_value(value) + "'");
  const auto r = run_cli(argv + " --json --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json printed = json::parse(r.out);
  EXPECT_EQ(printed.dump(), kOptions.dump());  // --json is the CLI's, not the request's

  const auto c = preview::preview_request_from_json(printed);
  EXPECT_EQ(c.input.x_columns, (std::vector<std::string>{"lon", "lat"}));
  EXPECT_EQ(c.input.M_Y, 2.0);
  EXPECT_EQ(std::get<release::GridPoints>(c.evaluation).mask_file, "mask.csv");
  EXPECT_EQ(c.grid_text, "0:1:8,0:1:8");
  EXPECT_EQ(c.ell, 0.25);
  EXPECT_FALSE(c.sigma.has_value());
  EXPECT_EQ(c.n, 155);
  EXPECT_EQ(c.draws, (std::vector<int>{1, 5}));
  EXPECT_FALSE(c.functional);
  EXPECT_TRUE(c.grid_mean);
  EXPECT_EQ(c.seed, 12345678901234567890ULL);
  EXPECT_FALSE(c.calibrate_epsilon.has_value());
}

// Absent options take the table's defaults in the reader.
TEST(PreviewRequest, DefaultsAreTheTables) {
  const json options = {{"domain", "0:1"}, {"grid", "0:1:9"}, {"threshold", 0.0},
                        {"delta", 1e-3},   {"n", 10},         {"epsilons", json::array({1.0})},
                        {"out", "o"}};
  const auto c = preview::preview_request_from_json(options);
  EXPECT_EQ(c.kernel, "exp");
  EXPECT_FALSE(c.ell.has_value());  // chosen on the proxy unless given
  EXPECT_EQ(c.sensitivity, "b1-sharp");
  EXPECT_EQ(c.conversion, "cks");
  EXPECT_EQ(c.draws, (std::vector<int>{1, 3, 5, 9}));
  EXPECT_EQ(c.bandwidths, (std::vector<double>{0.5, 1.0, 2.0}));
  EXPECT_EQ(c.sigma_factors, (std::vector<double>{0.1}));
  EXPECT_EQ(c.prior_mean_fraction, 0.1);
  EXPECT_EQ(c.simulations, 16);
  EXPECT_EQ(c.seed, 1u);
  EXPECT_EQ(c.image, "png");
  EXPECT_EQ(c.input.y_column, "y");
  EXPECT_FALSE(c.input.center.has_value());
}

std::vector<std::string> parameters_of_error(const json& request) {
  return test::parameters_of_error(
      [](const json& r) { return preview::preview_request_from_json(r); }, request);
}

// Errors name parameters; the CLI spells them as flags.
TEST(PreviewRequest, ErrorsNameParameters) {
  const json ok = {{"domain", "0:1"}, {"grid", "0:1:9"}, {"threshold", 0.0},
                   {"delta", 1e-3},   {"n", 10},         {"epsilons", json::array({1.0})},
                   {"out", "o"}};
  EXPECT_NO_THROW(preview::preview_request_from_json(ok));
  const auto with = [&](const char* key, const json& value) {
    json j = ok;
    j[key] = value;
    return j;
  };
  auto without_n = ok;
  without_n.erase("n");
  EXPECT_EQ(parameters_of_error(without_n), (std::vector<std::string>{"n", "calibrate_epsilon"}));
  EXPECT_EQ(parameters_of_error(with("dataset", "d")),
            (std::vector<std::string>{"dataset", "calibrate_epsilon"}));
  EXPECT_EQ(parameters_of_error(with("grid2d", "0:1:3,0:1:3")),
            std::vector<std::string>{"evaluation"});
  EXPECT_EQ(parameters_of_error(with("draws-grid", json::array({1.5}))),
            std::vector<std::string>{"draws_grid"});
  EXPECT_EQ(parameters_of_error(with("image", "gif")), std::vector<std::string>{"image_format"});
  EXPECT_EQ(parameters_of_error(with("M-Y", -1.0)), std::vector<std::string>{"M_Y"});
  EXPECT_EQ(parameters_of_error(with("calibrate-epsilon", 0.0)),
            std::vector<std::string>{"calibrate_epsilon"});
  auto calibrated = with("calibrate-epsilon", 0.5);
  calibrated.erase("n");
  calibrated["data"] = "d.csv";
  calibrated["dataset"] = "d";
  EXPECT_EQ(parameters_of_error(calibrated),
            (std::vector<std::string>{"calibrate_epsilon", "data", "dataset", "ledger"}));
  calibrated["ledger"] = "l.sqlite";
  EXPECT_EQ(preview::preview_request_from_json(calibrated).calibrate_epsilon, 0.5);
  EXPECT_THROW(preview::preview_request_from_json(with("colour", "red")), InputError);

  TempDir dir;
  const auto r = run_cli("preview --domain 0:1 --grid 0:1:9 -t 0 --delta 1e-3 --epsilons 1 --out " +
                         dir.file("o") + " --ledger l.sqlite --n 10");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "gpdp: error: --ledger belongs to --calibrate-epsilon (without it the preview reads "
            "no private records)\n");
}

}  // namespace
}  // namespace gpdp::test
