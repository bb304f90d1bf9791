// The entry of gpdp and gpdp-lab (program.hpp): the command registry, the global options, the
// refusal of the other program's commands and the error handler.
#include "program.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <new>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/factorisation.hpp"
#include "gpdp/version.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {
std::vector<CommandSetup>& registry() {
  static std::vector<CommandSetup> commands;
  return commands;
}

// `gpdp reproduce ...`: a hidden command that takes every argument after it unparsed and refuses
// with the line that runs it in the other program.
void add_refusal(CLI::App& app, const Program& program, const std::string& command) {
  auto* sub = app.add_subcommand(command, "")->group("")->prefix_command()->fallthrough(false);
  sub->set_help_flag();  // `gpdp reproduce --help` is refused too, with the same pointer
  sub->callback([sub, &program, command] {
    std::string line = program.other_name + " " + command;
    for (const auto& arg : sub->remaining()) line += " " + arg;
    throw InputError(fmt::format("'{}' is a command of {}, not of {}: run {}", command,
                                 program.other_name, program.name, line));
  });
}
}  // namespace

bool register_command(CommandSetup setup) {
  registry().push_back(std::move(setup));
  return true;
}

void install_commands(CLI::App& app) {
  for (const auto& setup : registry()) setup(app);
}

const std::vector<std::string>& product_commands() {
  static const std::vector<std::string> names{"account",   "calibrate", "hexbin", "ledger",
                                              "posterior", "preview",   "query",  "release",
                                              "sample",    "search",    "serve"};
  return names;
}

const std::vector<std::string>& lab_commands() {
  static const std::vector<std::string> names{"attack", "audit", "audit-study",
                                              "curves", "ops",   "reproduce"};
  return names;
}

int run_program(const Program& program, int argc, char** argv) {
  CLI::App app{program.description};
  app.set_version_flag("--version", kVersion);
  app.require_subcommand(1);
  // Before or after the subcommand (fallthrough); its callback runs before the subcommand's.
  app.add_option_function<std::string>(
         "--factor",
         [](const std::string& device) { set_factor_device(parse_factor_device(device)); },
         "Device of the dense factorisations (Cholesky, eigendecomposition) of every command: "
         "cpu (default) or gpu (cuSOLVER; needs a gpdp built with -DGPDP_CUDA=ON and a CUDA "
         "device, refused otherwise). Random draws always stay on the CPU's generator.")
      ->check(CLI::IsMember({"cpu", "gpu"}));
  app.fallthrough();
  install_commands(app);
  for (const auto& command : program.other_commands) add_refusal(app, program, command);
  const char* name = program.name.c_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: error: %s\n", name, with_flags(e, app).c_str());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "%s: error: out of memory: this request needs more memory than the machine "
                 "can give (ask for fewer points, a coarser grid or fewer draws)\n",
                 name);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", name, e.what());
    return 3;
  }
  return 0;
}

}  // namespace gpdp::cli
