// gpdp-lab curves' one request (reproduce/curves.hpp): the CLI's --print-request is the options
// given (no defaults), the reader applies the table's defaults and refuses bad values naming
// parameters (the CLI spells them as flags), and the library's run writes what the CLI writes.
// test_cli_account.cpp's CliCurves checks the CSV's rows against the accountant.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/reproduce/curves.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

TEST(CurvesRequest, CliPrintsTheOptionsGivenAndTheReaderAppliesTheDefaults) {
  const auto r = run_lab_cli("curves --out figs --points 5 --M-Y 2 --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json printed = json::parse(r.out);
  EXPECT_EQ(printed, (json{{"out", "figs"}, {"points", 5}, {"M-Y", 2.0}}));
  const auto c = reproduce::curves_request_from_json(printed);
  EXPECT_EQ(c.out_dir, "figs");
  EXPECT_EQ(c.points, 5);
  EXPECT_EQ(c.M_Y, 2.0);
  const reproduce::CurvesRequest defaults;
  EXPECT_EQ(c.format, defaults.format);
  EXPECT_EQ(c.n, defaults.n);
  EXPECT_EQ(c.delta, defaults.delta);
  EXPECT_EQ(c.kappa2, defaults.kappa2);
  EXPECT_EQ(c.rkhs_norm, defaults.rkhs_norm);
}

TEST(CurvesRequest, BadValuesNameTheirParameter) {
  const auto parameter = [](const json& change) {
    json request = {{"out", "figs"}};
    request.update(change);
    try {
      reproduce::curves_request_from_json(request);
    } catch (const ParameterError& e) {
      return e.parameters();
    }
    return std::vector<std::string>{"accepted"};
  };
  EXPECT_EQ(parameter({{"points", 1}}), std::vector<std::string>{"points"});
  EXPECT_EQ(parameter({{"points", 1LL << 40}}), std::vector<std::string>{"points"});
  EXPECT_EQ(parameter({{"format", "jpg"}}), std::vector<std::string>{"format"});
  EXPECT_EQ(parameter({{"n", 0}}), std::vector<std::string>{"n"});
  EXPECT_EQ(parameter({{"delta", 1.0}}), std::vector<std::string>{"delta"});
  EXPECT_EQ(parameter({{"kappa2", 2.0}}), std::vector<std::string>{"kappa2"});
  EXPECT_EQ(parameter({{"out", ""}}), std::vector<std::string>{"out"});
  // A badly typed value is named by this command's parameter, not gpdp release's ("out_dir").
  EXPECT_EQ(parameter({{"out", 3}}), std::vector<std::string>{"out"});
  EXPECT_EQ(parameter({{"n", "many"}}), std::vector<std::string>{"n"});
  EXPECT_EQ(parameter(json::object()), std::vector<std::string>{"accepted"});
  EXPECT_THROW(reproduce::curves_request_from_json({{"out", "f"}, {"colour", 1}}), InputError);

  const auto r = run_lab_cli("curves --out figs --format jpg");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--format must be png or svg"), std::string::npos) << r.err;
}

TEST(CurvesRequest, RunWritesWhatTheCliWrites) {
  TempDir dir;
  reproduce::CurvesRequest c;
  c.out_dir = dir.file("lib");
  c.points = 3;
  c.format = "svg";
  std::vector<std::string> heard;
  const auto out =
      reproduce::run_curves(c, [&](const std::string& setting) { heard.push_back(setting); });
  EXPECT_EQ(heard, (std::vector<std::string>{"generic", "rkhs", "noise"}));
  EXPECT_EQ(out.csv_path, dir.file("lib") + "/curves.csv");
  const auto r = run_lab_cli("curves --out " + dir.file("cli") + " --points 3 --format svg");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "curves: generic\ncurves: rkhs\ncurves: noise\n");
  EXPECT_EQ(read_text(dir.file("cli") + "/curves.csv"), read_text(out.csv_path));
  EXPECT_EQ(read_text(dir.file("cli") + "/curves.svg"), read_text(out.figure_path));
}

}  // namespace
}  // namespace gpdp::test
