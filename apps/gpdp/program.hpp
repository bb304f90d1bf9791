#pragma once
// The entry of both executables: gpdp (the product: release, preview, query, serve, ...) and
// gpdp-lab (the research tools: reproduce, attack, audit, ...). Each main() names its program and
// runs this; both get the same global options (--factor, --version), the commands their own
// apps/*/cmd_*.cpp registered (command.hpp) and one error handler. A command of the other program
// is refused with the line to run instead.
#include <string>
#include <vector>

namespace gpdp::cli {

struct Program {
  std::string name;         // "gpdp": the usage lines and the "NAME: error:" prefix
  std::string description;  // the top of NAME --help
  std::string other_name;   // the program that runs other_commands ("gpdp-lab")
  std::vector<std::string> other_commands;
};

// The commands of each program: the list the other one refuses with a pointer (a test checks that
// each program's --help lists exactly its own).
const std::vector<std::string>& product_commands();
const std::vector<std::string>& lab_commands();

// Parses argv and runs the chosen command; the exit status (0, 1 parse error, 2 bad input or
// resources, 3 internal error).
int run_program(const Program& program, int argc, char** argv);

}  // namespace gpdp::cli
