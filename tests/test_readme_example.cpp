// The README's worked example (its ```console block: `gpdp sample` and `gpdp posterior`) runs as
// printed: every `$ ` line is run by /bin/sh in a scratch folder, with the built CLI first on PATH
// as `gpdp`, and what it prints (stdout and stderr) must be the lines that follow it in README.md.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/paths.hpp"

namespace {

struct ConsoleStep {
  std::string command;
  std::string expected;  // the lines after the command, each ending in '\n'
};

// The steps of the first ```console block after `heading`.
std::vector<ConsoleStep> console_block(const std::string& markdown, const std::string& heading) {
  std::istringstream in(markdown.substr(markdown.find(heading)));
  std::string line;
  while (std::getline(in, line) && line != "```console") {
  }
  std::vector<ConsoleStep> steps;
  while (std::getline(in, line) && line != "```") {
    if (line.rfind("$ ", 0) == 0) {
      steps.push_back({line.substr(2), ""});
    } else if (!steps.empty()) {
      steps.back().expected += line + "\n";
    }
  }
  return steps;
}

}  // namespace

TEST(ReadmeExample, ConsoleBlockRunsAsPrinted) {
  const std::string readme = gpdp::test::read_text(gpdp::test::source_dir() + "/README.md");
  const auto steps = console_block(readme, "## Worked example");
  ASSERT_GE(steps.size(), 4u) << "README.md: no console block under '## Worked example'";
  gpdp::test::TempDir dir;
  const std::filesystem::path bin = dir.path() / "bin";
  std::filesystem::create_directories(bin);
  std::filesystem::create_symlink(gpdp::test::cli_path(), bin / "gpdp");
  const std::filesystem::path work = dir.path() / "work";
  std::filesystem::create_directories(work);
  for (const auto& step : steps) {
    const std::string script = (dir.path() / "step.sh").string();
    const std::string output = (dir.path() / "output").string();
    gpdp::test::write_text(script, step.command + "\n");
    const std::string run = "cd '" + work.string() + "' && PATH='" + bin.string() +
                            "':\"$PATH\" /bin/sh '" + script + "' >'" + output + "' 2>&1";
    ASSERT_EQ(std::system(run.c_str()), 0) << step.command;
    EXPECT_EQ(gpdp::test::read_text(output), step.expected) << step.command;
  }
}
