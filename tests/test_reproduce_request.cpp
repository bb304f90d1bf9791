// gpdp-lab reproduce's one request (reproduce/command.hpp): the CLI's --print-request is the
// options table's request (target positional, defaults written), the reader applies and checks it
// naming parameters (the CLI spells them as flags, with its words of before), and the library's
// run writes what the CLI writes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/reproduce/command.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

TEST(ReproduceRequest, CliPrintsTheRequestWithTheTargetAndTheDefaults) {
  const auto r = run_lab_cli("reproduce table3 --out tables --pairs 3 --print-request");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json printed = json::parse(r.out);
  EXPECT_EQ(printed, (json{{"target", "table3"},
                           {"out", "tables"},
                           {"pairs", 3},
                           {"quick", false},
                           {"seed", 20260616},
                           {"conversion", "mironov"},
                           {"list", false}}));
  const auto request = reproduce::reproduce_request_from_json(printed);
  EXPECT_EQ(request.target, "table3");
  EXPECT_FALSE(request.list);
  EXPECT_EQ(request.options.out_dir, "tables");
  EXPECT_EQ(request.options.pairs, 3);
  const reproduce::Options defaults;
  EXPECT_EQ(request.options.quick, defaults.quick);
  EXPECT_EQ(request.options.seed, defaults.seed);
  EXPECT_EQ(request.options.conversion, defaults.conversion);
  EXPECT_EQ(request.options.sensitivity, defaults.sensitivity);
  EXPECT_EQ(request.options.data_dir, defaults.data_dir);
  EXPECT_EQ(request.options.threads, 0);  // the front end's (--threads is the CLI's own)

  // The reader applies the defaults to a request holding only what was given.
  const auto given = reproduce::reproduce_request_from_json(
      {{"target", "fig6"}, {"out", "o"}, {"quick", true}, {"data-dir", "d"}});
  EXPECT_TRUE(given.options.quick);
  EXPECT_EQ(given.options.data_dir, "d");
  EXPECT_EQ(given.options.seed, defaults.seed);
  EXPECT_EQ(given.options.conversion, defaults.conversion);
}

TEST(ReproduceRequest, BadValuesNameTheirParameter) {
  const auto parameter = [](const json& change) {
    json request = {{"target", "table1"}, {"out", "tables"}};
    request.update(change);
    try {
      reproduce::reproduce_request_from_json(request);
    } catch (const ParameterError& e) {
      return e.parameters();
    }
    return std::vector<std::string>{"accepted"};
  };
  EXPECT_EQ(parameter({{"conversion", "rdp"}}), std::vector<std::string>{"conversion"});
  EXPECT_EQ(parameter({{"out", ""}}), std::vector<std::string>{"out"});
  EXPECT_EQ(parameter({{"target", "table9"}}), std::vector<std::string>{"target"});
  EXPECT_EQ(parameter({{"seed", -1}}), std::vector<std::string>{"seed"});
  EXPECT_EQ(parameter({{"pairs", "many"}}), std::vector<std::string>{"pairs"});
  EXPECT_EQ(parameter({{"conversion", "cks"}, {"pairs", -3}}),
            std::vector<std::string>{"accepted"});  // pairs ≤ 0: the paper's, as before
  EXPECT_THROW(reproduce::reproduce_request_from_json({{"target", "table1"}, {"colour", 1}}),
               InputError);
  // Listing (or naming no target) checks nothing else.
  const auto list = reproduce::reproduce_request_from_json({{"list", true}, {"conversion", "x"}});
  EXPECT_TRUE(list.list);
  const auto none = reproduce::reproduce_request_from_json({{"conversion", "x"}});
  EXPECT_TRUE(none.target.empty());
  EXPECT_FALSE(none.list);
}

TEST(ReproduceRequest, CliWordsTheErrorsInItsFlags) {
  const auto conversion = run_lab_cli("reproduce table1 --out o --conversion rdp");
  EXPECT_EQ(conversion.exit_code, 2);
  EXPECT_EQ(conversion.err, "gpdp-lab: error: --conversion must be mironov or cks\n");
  const auto out = run_lab_cli("reproduce table1 --quick");
  EXPECT_EQ(out.err, "gpdp-lab: error: reproduce: --out DIR is required\n");
  const auto seed = run_lab_cli("reproduce table1 --out o --seed -1");
  EXPECT_EQ(seed.err, "gpdp-lab: error: --seed: must be ≥ 0, got -1\n");
  const auto unknown = run_lab_cli("reproduce table9 --out o");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err.rfind("gpdp-lab: error: reproduce: unknown target 'table9' (known: ", 0),
            0U)
      << unknown.err;
  // No target: the list, then the refusal; --list: the list alone.
  const auto none = run_lab_cli("reproduce --out o");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err, "gpdp-lab: error: reproduce: name a target (listed above)\n");
  const auto list = run_lab_cli("reproduce --list");
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(list.out, none.out);
  EXPECT_EQ(list.out.rfind("fig2           Membership inference", 0), 0U) << list.out;
}

TEST(ReproduceRequest, RunWritesWhatTheCliWrites) {
  TempDir dir;
  auto request = reproduce::reproduce_request_from_json(
      {{"target", "fig6"}, {"out", dir.file("lib")}, {"quick", true}, {"pairs", 200}});
  tasks::ThreadExecutor executor(2, lab::registry());
  reproduce::run_request(request, executor);  // creates the folder
  const auto r =
      run_lab_cli("reproduce fig6 --quick --pairs 200 --threads 2 --out " + dir.file("cli"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"fig6.csv", "fig6.md", "fig6.png"}) {
    EXPECT_EQ(read_text(dir.file("cli") + "/" + f), read_text(dir.file("lib") + "/" + f)) << f;
  }
}

}  // namespace
}  // namespace gpdp::test
