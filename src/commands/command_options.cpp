#include "gpdp/commands/command_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <map>

#include "experiments/public_search_options.hpp"
#include "gpdp/commands/account.hpp"
#include "gpdp/commands/calibrate.hpp"
#include "gpdp/commands/hexbin.hpp"
#include "gpdp/commands/ledger.hpp"
#include "gpdp/commands/posterior.hpp"
#include "gpdp/commands/query.hpp"
#include "gpdp/commands/sample.hpp"
#include "gpdp/error.hpp"
#include "gpdp/release/release_options.hpp"
#include "release/preview_options.hpp"
#include "serve.hpp"

namespace gpdp::commands {

namespace {
using OptionList = std::function<std::vector<options::OptionSpec>()>;

const std::map<std::string, OptionList>& commands() {
  static const std::map<std::string, OptionList> all{
      {"account", &account_options},
      {"calibrate", &calibrate_options},
      {"hexbin", &hexbin_options},
      {"ledger export", &ledger_export_options},
      {"ledger migrate", &ledger_migrate_options},
      {"ledger show", &ledger_show_options},
      {"posterior", &posterior_options},
      {"preview", &release::preview_options},
      {"query", &query_options},
      {"release", &release::release_options},
      {"sample", &sample_options},
      {"search", &experiments::public_search_options},
      {"serve", &serve_options},
  };
  return all;
}
}  // namespace

std::vector<options::OptionSpec> command_options(const std::string& command) {
  const auto it = commands().find(command);
  require(it != commands().end(),
          fmt::format("no options are listed for a command '{}' (listed: {})", command,
                      fmt::join(option_commands(), ", ")));
  return with_print_request(it->second());
}

std::vector<options::OptionSpec> with_print_request(std::vector<options::OptionSpec> specs) {
  specs.push_back(options::option("--print-request", options::OptionType::Flag, false,
                                  "Print the JSON request the options make (the same from the "
                                  "CLI and from python -m gpdp.distributed) and exit")
                      .in_scope(options::OptionScope::FrontEnd));
  return specs;
}

std::vector<std::string> option_commands() {
  std::vector<std::string> names;
  for (const auto& [name, list] : commands()) names.push_back(name);
  return names;
}

}  // namespace gpdp::commands
