// The product/lab split of the command line: gpdp runs the product's commands, gpdp-lab the
// research tools; each lists only its own in --help and refuses the other's with one line naming
// the command to run instead.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "support/paths.hpp"

namespace gpdp::test {
namespace {

const std::set<std::string> kProduct{"account",   "calibrate", "hexbin", "ledger",
                                     "posterior", "preview",   "query",  "release",
                                     "sample",    "search",    "serve"};
const std::set<std::string> kLab{"attack", "audit", "audit-study", "curves", "ops", "reproduce"};

// The subcommands a --help lists (CLI11: "Subcommands:", then "  name  description" lines, the
// continuation lines of a description indented further).
std::set<std::string> listed_commands(const std::string& help) {
  std::istringstream in(help);
  std::string line;
  while (std::getline(in, line) && line != "Subcommands:") {
  }
  std::set<std::string> names;
  while (std::getline(in, line) && !line.empty()) {
    if (line.size() > 2 && line.rfind("  ", 0) == 0 && line[2] != ' ') {
      names.insert(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  return names;
}

TEST(CliPrograms, EachHelpListsItsOwnCommands) {
  const auto product = run_cli("--help");
  const auto lab = run_lab_cli("--help");
  ASSERT_EQ(product.exit_code, 0) << product.err;
  ASSERT_EQ(lab.exit_code, 0) << lab.err;
  EXPECT_EQ(listed_commands(product.out), kProduct) << product.out;
  EXPECT_EQ(listed_commands(lab.out), kLab) << lab.out;
  // Each points at the other.
  EXPECT_NE(product.out.find("gpdp-lab"), std::string::npos) << product.out;
  EXPECT_NE(lab.out.find("gpdp --help"), std::string::npos) << lab.out;
}

TEST(CliPrograms, GpdpRefusesTheResearchToolsWithTheLineToRun) {
  const auto r = run_cli("reproduce table1 --quick --out somewhere");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err,
            "gpdp: error: 'reproduce' is a command of gpdp-lab, not of gpdp: run gpdp-lab "
            "reproduce table1 --quick --out somewhere\n");
  // The global option before the command, and a --help after it: refused the same way.
  EXPECT_EQ(run_cli("--factor cpu reproduce table1").err,
            "gpdp: error: 'reproduce' is a command of gpdp-lab, not of gpdp: run gpdp-lab "
            "reproduce table1\n");
  const auto help = run_cli("reproduce --help");
  EXPECT_EQ(help.exit_code, 2);
  EXPECT_NE(help.err.find("run gpdp-lab reproduce --help"), std::string::npos) << help.err;
  for (const auto& command : kLab) {
    const auto refused = run_cli(command + " --json");
    EXPECT_EQ(refused.exit_code, 2) << command;
    EXPECT_NE(refused.err.find("run gpdp-lab " + command + " --json\n"), std::string::npos)
        << refused.err;
  }
}

TEST(CliPrograms, GpdpLabRefusesTheProductCommands) {
  for (const auto& command : kProduct) {
    const auto refused = run_lab_cli(command + " --out x");
    EXPECT_EQ(refused.exit_code, 2) << command;
    EXPECT_TRUE(refused.out.empty()) << refused.out;
    EXPECT_EQ(refused.err, "gpdp-lab: error: '" + command +
                               "' is a command of gpdp, not of gpdp-lab: run gpdp " + command +
                               " --out x\n");
  }
}

TEST(CliPrograms, BothShareTheGlobalOptionsAndTheErrorHandler) {
  const auto product = run_cli("--version"), lab = run_lab_cli("--version");
  EXPECT_EQ(product.exit_code, 0);
  EXPECT_EQ(product.out, lab.out);
  // --factor before or after the command; a bad value is a parse error.
  const auto tpu = run_lab_cli("--factor tpu curves --out x");
  EXPECT_NE(tpu.exit_code, 0);
  EXPECT_NE(tpu.err.find("tpu"), std::string::npos) << tpu.err;
  // A library error (after a --factor that follows the command): one line, prefixed with the
  // program's name.
  const auto bad = run_lab_cli("curves --out x --points 1 --factor cpu");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err.rfind("gpdp-lab: error: ", 0), 0U) << bad.err;
  EXPECT_NE(bad.err.find("points"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << bad.err;
}

}  // namespace
}  // namespace gpdp::test
