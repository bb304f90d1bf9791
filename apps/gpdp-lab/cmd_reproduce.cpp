// gpdp-lab reproduce TARGET: the library's reproductions of the papers' tables and figures
// (reproduce/targets.hpp) on this process's threads. The flags are the library's options table
// (reproduce/command.hpp); argv becomes the JSON request (--print-request shows it), which
// reproduce::reproduce_request_from_json reads; reproduce::run_request runs it.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/lab/command_options.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/reproduce/command.hpp"
#include "gpdp/reproduce/targets.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void print_targets() {
  auto targets = reproduce::all_targets();
  std::sort(targets.begin(), targets.end(),
            [](const auto& a, const auto& b) { return a.target.name < b.target.name; });
  for (const auto& r : targets) fmt::print("{:<14} {}\n", r.target.name, r.target.description);
}

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed();
  if (SpecOptions::print_request(parsed)) return;
  auto request = reproduce::reproduce_request_from_json(parsed.request);
  if (request.list || request.target.empty()) {
    print_targets();
    require_parameter(request.list, "target", "reproduce: name a target (listed above)");
    return;
  }
  request.options.threads = parsed.front_end.at("threads").get<int>();
  tasks::ThreadExecutor executor(request.options.threads, lab::registry());
  reproduce::run_request(request, executor);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "reproduce",
      "Regenerate a table or figure of the papers (CSV + Markdown + PNG/SVG in --out).\n"
      "Targets are listed by 'gpdp-lab reproduce --list'.");
  auto opts = std::make_shared<SpecOptions>(sub, lab::command_options("reproduce"));
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
