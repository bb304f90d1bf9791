#include "gpdp/lab/command_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>

#include "gpdp/attack/attack_options.hpp"
#include "gpdp/auditor/audit_run.hpp"
#include "gpdp/auditor/audit_study.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/error.hpp"
#include "gpdp/ops/ops_command.hpp"
#include "gpdp/reproduce/command.hpp"
#include "gpdp/reproduce/curves.hpp"

namespace gpdp::lab {

namespace {
using OptionList = std::function<std::vector<options::OptionSpec>()>;

const std::map<std::string, OptionList>& research_tools() {
  static const std::map<std::string, OptionList> all{
      {"attack", &attack::attack_options},
      {"audit", &auditor::audit_options},
      {"audit-study", &auditor::audit_study_options},
      {"curves", &reproduce::curves_options},
      {"ops", &ops::ops_options},
      {"reproduce", &reproduce::reproduce_options},
  };
  return all;
}
}  // namespace

std::vector<options::OptionSpec> command_options(const std::string& command) {
  const auto it = research_tools().find(command);
  const auto product = commands::option_commands();
  require(it != research_tools().end() ||
              std::find(product.begin(), product.end(), command) != product.end(),
          fmt::format("no options are listed for a command '{}' (listed: {})", command,
                      fmt::join(option_commands(), ", ")));
  if (it == research_tools().end()) return commands::command_options(command);
  return commands::with_print_request(it->second());
}

std::vector<std::string> option_commands() {
  std::vector<std::string> names = commands::option_commands();
  for (const auto& [name, list] : research_tools()) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace gpdp::lab
