#pragma once
// Subcommand registry: each apps/gpdp/cmd_*.cpp adds itself with a static
//   const bool registered = gpdp::cli::register_command(&setup_function);
// so adding a command never touches main.cpp.
#include <CLI/CLI.hpp>
#include <functional>

namespace gpdp::cli {

using CommandSetup = std::function<void(CLI::App& app)>;

bool register_command(CommandSetup setup);
void install_commands(CLI::App& app);

}  // namespace gpdp::cli
