// gpdp-lab: the research tools of gpdp (the papers' tables and figures, the membership attack,
// the privacy audits, the curves, the OPS experiments) over the same libraries as gpdp.
#include <fmt/format.h>

#include "gpdp/version.hpp"
#include "program.hpp"

int main(int argc, char** argv) {
  const gpdp::cli::Program program{
      "gpdp-lab",
      fmt::format("gpdp-lab {} — the research tools of gpdp: the papers' tables and figures, the\n"
                  "membership-inference attack, the privacy audits, the (ε, δ) curves, the OPS "
                  "experiments.\n"
                  "Releases, previews, queries and the budget are gpdp's (gpdp --help).\n"
                  "Run 'gpdp-lab COMMAND --help' for each command.",
                  gpdp::kVersion),
      "gpdp", gpdp::cli::product_commands()};
  return gpdp::cli::run_program(program, argc, argv);
}
