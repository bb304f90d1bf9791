// gpdp-lab audit-study: the tightness study of docs/privacy.md (privacy/audit_study.hpp). Prints
// the markdown table, writes --out; a row that violates a lemma makes it exit 2. Its options are
// the library's (audit_study_options), shared with python -m gpdp.distributed audit-study.
#include <fmt/format.h>

#include <functional>

#include "command.hpp"
#include "gpdp/auditor/audit_study.hpp"
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
  const auto request = auditor::audit_study_request_from_json(parsed.request);
  const int threads = parsed.front_end.at("threads").get<int>();
  require(threads >= 0, "--threads must be ≥ 0");
  tasks::ThreadExecutor executor(threads, lab::registry());
  std::function<void(const std::string&)> progress;
  if (!parsed.front_end.at("quiet").get<bool>()) {
    progress = [](const std::string& line) { fmt::print(stderr, "{}\n", line); };
  }
  const auto study = auditor::run_audit_study(request, executor, progress);
  fmt::print("{}", study.markdown);
  if (study.violation) {
    throw PrivacyError("VIOLATION: a row of the study exceeds a proven bound (marked above)");
  }
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "audit-study",
      "The tightness study of docs/privacy.md: 'gpdp-lab audit' (gradient and original Subplex\n"
      "searches) over a fixed table of settings (exponential kernel, d = 1, 2; n = 1 ... 155;\n"
      "lemmas B.1, b1-sharp, B.7), as a markdown table; exits 2 if any row violates any lemma.\n"
      "Every audit's local searches are tasks, all rows at once (python -m gpdp.distributed\n"
      "audit-study runs the same on a cluster). About 3 CPU minutes; run it with nice.");
  auto opts = std::make_shared<SpecOptions>(sub, lab::command_options("audit-study"));
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
