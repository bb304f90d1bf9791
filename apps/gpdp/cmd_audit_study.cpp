// gpdp audit-study: the tightness study of docs/privacy.md (privacy/audit_study.hpp). Prints the
// markdown table, writes --out; a row that violates a lemma makes it exit 2.
#include <fmt/format.h>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/privacy/audit_study.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::cli {

namespace {

struct StudyArgs {
  privacy::AuditStudyRequest request;
  int threads = 1;  // workers of the ThreadExecutor
};

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "audit-study",
      "The tightness study of docs/privacy.md: 'gpdp audit' (gradient and original Subplex\n"
      "searches) over a fixed table of settings (exponential kernel, d = 1, 2; n = 1 ... 155;\n"
      "lemmas B.1, b1-sharp, B.7), as a markdown table; exits 2 if any row violates any lemma.\n"
      "Every audit's local searches are tasks, all rows at once (python -m gpdp.distributed\n"
      "audit-study runs the same on a cluster). About 3 CPU minutes; run it with nice.");
  auto args = std::make_shared<StudyArgs>();
  sub->add_option("--out", args->request.out, "JSON file for every row with its witness datasets");
  sub->add_option("--threads", args->threads, "Worker threads for the searches (0 = all cores)")
      ->capture_default_str();
  sub->add_option("--max-n", args->request.max_n, "Skip the rows with larger n (a shorter run)")
      ->capture_default_str();
  sub->callback([args] {
    require(args->threads >= 0, "--threads must be ≥ 0");
    tasks::ThreadExecutor executor(args->threads);
    const auto study = privacy::run_audit_study(
        args->request, executor, [](const std::string& line) { fmt::print(stderr, "{}\n", line); });
    fmt::print("{}", study.markdown);
    if (study.violation) {
      throw PrivacyError("VIOLATION: a row of the study exceeds a proven bound (marked above)");
    }
  });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
