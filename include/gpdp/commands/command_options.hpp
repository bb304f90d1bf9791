#pragma once
// The product's commands that both the CLI and `python -m gpdp.distributed` run on an executor,
// with their options as data (options/option_spec.hpp). Add a command with one line in
// src/commands/command_options.cpp (a research tool's: lab/command_options.hpp, which lists both
// and is what gpdp._core.command_options reads).
#include <string>
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::commands {

// The command's options, then --print-request (a front-end flag every such command has: print
// the request and exit); InputError naming the command when there is no such command.
std::vector<options::OptionSpec> command_options(const std::string& command);
// The commands listed, sorted.
std::vector<std::string> option_commands();
// `specs` with --print-request appended (what command_options returns for a list).
std::vector<options::OptionSpec> with_print_request(std::vector<options::OptionSpec> specs);

}  // namespace gpdp::commands
