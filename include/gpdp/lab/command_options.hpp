#pragma once
// The options as data (options/option_spec.hpp) of every command that both a CLI and
// `python -m gpdp.distributed` run: the research tools' (attack, audit, audit-study) and the
// product's (commands/command_options.hpp: search). What gpdp-lab and gpdp._core.command_options
// read. Add a research tool with one line in src/lab/command_options.cpp.
#include <string>
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::lab {

// As commands::command_options, over both lists.
std::vector<options::OptionSpec> command_options(const std::string& command);
// The commands listed (both lists), sorted.
std::vector<std::string> option_commands();

}  // namespace gpdp::lab
