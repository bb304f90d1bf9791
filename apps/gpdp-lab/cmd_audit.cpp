// gpdp-lab audit: an empirical lower bound on the privacy loss, beside the proven upper bound. Its
// options and its report are the library's (privacy/audit_run.hpp), shared with python -m
// gpdp.distributed audit.
#include <fmt/format.h>

#include "command.hpp"
#include "gpdp/auditor/audit_run.hpp"
#include "gpdp/error.hpp"
#include "gpdp/lab/command_options.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/tasks/executor.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed();
  if (SpecOptions::print_request(parsed)) return;
  const auto request = auditor::audit_request_from_json(parsed.request);
  const bool quiet = parsed.front_end.at("quiet").get<bool>();
  auto progress = [quiet](const std::string& msg) {
    if (!quiet) fmt::print(stderr, "{}\n", msg);
  };
  tasks::ThreadExecutor executor(parsed.front_end.at("threads").get<int>(), lab::registry());
  const auto run = auditor::run_audit(request, executor, progress);
  fmt::print("{}", run.report);
  if (run.violation) {
    throw PrivacyError(
        "VIOLATION: a concrete neighbouring pair exceeds the proven bound (see the rows marked "
        "VIOLATION): the stated V_n / Δ_n or their assumptions are wrong");
  }
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "audit",
      "Search concrete neighbouring datasets D ~ D' (within --M-Y and the domain) and test sets\n"
      "for the largest EXACT Rényi divergence between the two released Gaussians, and compare it\n"
      "with the proven bound for the same flags (as for 'gpdp account'). Reports how tight the\n"
      "bound is; exits non-zero with VIOLATION if a concrete pair exceeds it. Seeded search.");
  auto opts = std::make_shared<SpecOptions>(sub, lab::command_options("audit"));
  sub->footer(
      "Example (a Δ_n √2 below Lemma B.1 is violated): gpdp-lab audit --kernel exp1d --n 1 --r 1 "
      "--sigma 0.1 --Delta-n 0.70710678 --delta 1e-5");
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
