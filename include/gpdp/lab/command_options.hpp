#pragma once
// The options as data (options/option_spec.hpp) of every declared command: the research tools'
// (gpdp-lab attack, audit, audit-study, curves, ops, reproduce) and the product's
// (commands/command_options.hpp). What gpdp-lab, gpdp._core.command_options and
// `python -m gpdp.distributed` read. Add a research tool with one line in
// src/lab/command_options.cpp.
#include <string>
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::lab {

// As commands::command_options, over both lists.
std::vector<options::OptionSpec> command_options(const std::string& command);
// The commands listed (both lists), sorted.
std::vector<std::string> option_commands();

}  // namespace gpdp::lab
