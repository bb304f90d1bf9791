// Library errors name parameters (Error::parameters(), the request keys with '_'); only the CLI
// spells them as flags, from the flags the running command registered (issue 31). Each failure is
// raised once through the library and once through the CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpdp/attack/attack_run.hpp"
#include "gpdp/error.hpp"
#include "gpdp/options/mechanism_flags.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/options/parameter_spelling.hpp"
#include "gpdp/release/release_options.hpp"
#include "support/paths.hpp"

namespace gpdp {
namespace {

// The message and parameters of the gpdp::Error `f` throws.
template <class F>
std::pair<std::string, std::vector<std::string>> error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.what(), e.parameters()};
  }
  ADD_FAILURE() << "no gpdp::Error thrown";
  return {};
}

TEST(ErrorParameters, AttackNamesTheKeyAndTheCliTheFlag) {
  attack::AttackRequest a;
  a.draws = 0;
  const auto [message, parameters] = error_of([&] { attack::check(a); });
  EXPECT_EQ(message, "draws must be ≥ 1, got 0");
  EXPECT_EQ(parameters, std::vector<std::string>{"draws"});

  const auto cli = test::run_lab_cli("attack --draws 0 --shadow 50 --eval 50 --quiet");
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_EQ(cli.err, "gpdp-lab: error: --draws must be ≥ 1, got 0\n");
}

TEST(ErrorParameters, EveryParameterOfAMessageBecomesItsFlag) {
  options::MechanismFlags m;
  m.kernel = "exp1d";
  m.dim = 2;
  m.n = 10;
  const auto [message, parameters] = error_of([&] { options::to_mechanism(m); });
  EXPECT_EQ(message, "kernel exp1d needs dim 1, got dim 2");
  EXPECT_EQ(parameters, (std::vector<std::string>{"kernel", "dim"}));

  const auto cli = test::run_cli("account --kernel exp1d --dim 2 --n 10 --delta 0.01");
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_EQ(cli.err, "gpdp: error: --kernel exp1d needs --dim 1, got --dim 2\n");
}

// A parameter set by several flags reads as all of them; a file path that contains a parameter's
// name ("data" in ".../data.csv") is left alone.
TEST(ErrorParameters, SharedParametersAndPathsInTheMessage) {
  test::TempDir dir;
  const std::string data = dir.file("data.csv");
  test::write_text(data, "x1,y\n0.1,2\n0.5,-1\n0.9,0.5\n");
  test::write_text(dir.file("validation.csv"), "x1,y\n0.2,1\n0.7,-1\n");
  const auto search = test::run_cli("search --data " + data + " --validation " +
                                    dir.file("validation.csv") + " --quiet");
  EXPECT_EQ(search.exit_code, 2);
  EXPECT_EQ(search.err.rfind("gpdp: error: --data " + data + ": responses must satisfy", 0), 0u)
      << search.err;

  test::write_text(data, "x1,x2,y\n0.1,0.1,0.5\n0.5,0.5,-0.5\n");
  const auto release =
      test::run_cli("release --data " + data +
                    " --domain 0:1,0:1 --grid2d 0:2:4,0:1:4 --threshold 0 "
                    "--delta 1e-3 --kernel exp --ell 0.3 --r 1 --sigma 1 --dataset d --ledger " +
                    dir.file("ledger.sqlite") + " --out " + dir.file("out"));
  EXPECT_EQ(release.exit_code, 2);
  EXPECT_EQ(release.err.rfind("gpdp: error: --points/--grid/--grid2d: the grid leaves the "
                              "declared domain",
                              0),
            0u)
      << release.err;
}

TEST(ErrorParameters, SpellingReplacesWholeWordsOnly) {
  const std::map<std::string, std::string> flags{{"data", "--data"}, {"r", "--r"}};
  EXPECT_EQ(options::spell_parameters("data /tmp/data.csv (data_dir, my-data): r, r2, data.",
                                      {"data", "r"}, flags),
            "--data /tmp/data.csv (data_dir, my-data): --r, r2, --data.");
  // Only the error's own parameters, and only those the front end can spell.
  EXPECT_EQ(options::spell_parameters("data and r", {"r"}, flags), "data and --r");
  EXPECT_EQ(options::spell_parameters("x and r", {"x", "r"}, flags), "x and --r");
  // What the user gave is quoted and stays as given; an apostrophe opens no quote.
  EXPECT_EQ(options::spell_parameters("data: not a file: 'data' (the data's \"r\")", {"data", "r"},
                                      flags),
            "--data: not a file: 'data' (the --data's \"r\")");
  EXPECT_EQ(options::spell_parameters("r's value 'x' and r", {"r"}, flags),
            "--r's value 'x' and --r");
}

// The specs state a parameter beside the flag only where the library's name is not the flag's.
TEST(ErrorParameters, SpecsStateTheParameterBesideTheFlag) {
  std::vector<std::pair<std::string, std::string>> flag_parameter;
  for (const auto& spec : release::release_options())
    flag_parameter.emplace_back(spec.flag, options::parameter_of(spec));
  const auto has = [&](const std::string& flag, const std::string& parameter) {
    return std::find(flag_parameter.begin(), flag_parameter.end(), std::pair{flag, parameter}) !=
           flag_parameter.end();
  };
  EXPECT_TRUE(has("--target-epsilon", "target_epsilon"));  // the key, read as a parameter
  EXPECT_TRUE(has("--M-Y", "M_Y"));
  EXPECT_TRUE(has("--out", "out_dir"));  // stated
  EXPECT_TRUE(has("--grid", "evaluation"));
  EXPECT_TRUE(has("--grid2d", "evaluation"));
  EXPECT_TRUE(has("--points", "evaluation"));
  EXPECT_EQ(options::parameter_of_flag("--Delta-n"), "Delta_n");
}

}  // namespace
}  // namespace gpdp
