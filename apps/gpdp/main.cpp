// gpdp: differentially private Gaussian-process posterior sample paths (the product commands;
// the research tools are gpdp-lab's, apps/gpdp-lab).
#include <fmt/format.h>

#include "gpdp/version.hpp"
#include "program.hpp"

int main(int argc, char** argv) {
  const gpdp::cli::Program program{
      "gpdp",
      fmt::format(
          "gpdp {} — differentially private Gaussian-process posterior sample paths.\n"
          "Releases exact posterior draws with a Rényi-DP certificate and keeps the privacy "
          "budget.\n"
          "The research tools (reproduce, attack, audit, audit-study, curves, ops) are "
          "gpdp-lab's.\n"
          "Run 'gpdp COMMAND --help' for each command.",
          gpdp::kVersion),
      "gpdp-lab", gpdp::cli::lab_commands()};
  return gpdp::cli::run_program(program, argc, argv);
}
