#pragma once
// gpdp-lab audit-study: the tightness study of docs/privacy.md ("How loose is the bound at
// realistic n?"). Every row of a fixed table of settings × n (privacy/audit_study_row.hpp) is
// audited by the gradient search at the optimal orders α* of every applicable lemma and, for n ≤
// 50, by the original Subplex search at B.1's α*. The result is a markdown table and, optionally, a
// JSON file with every row and its witnesses; any found value above any lemma's proven value is a
// violation. What `gpdp-lab audit-study` and `python -m gpdp.distributed audit-study` run: the
// audits' local searches are "audit.ascent" / "audit.subplex" tasks (privacy/audit_tasks.hpp),
// every audit of the study at once (tasks/together.hpp): one task list per round over all rows, and
// the same table and JSON (timing aside) whatever the executor.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/options/option_spec.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::auditor {

struct AuditStudyRequest {
  long max_n = 155;  // rows with larger n are skipped (a shorter run); ≥ 1
  std::string out;   // JSON file of every row with its witnesses ("" = none)
};

// The options of `gpdp-lab audit-study` and `python -m gpdp.distributed audit-study` (one
// definition, options/option_spec.hpp): --max-n, --out (the request), --quiet (both front ends),
// --threads (the CLI's executor).
std::vector<options::OptionSpec> audit_study_options();

// The request from JSON {"max-n": 155, "out": "study.json"} (as parse_options makes it from the
// flags): missing keys keep their defaults, unknown keys are an InputError naming them.
AuditStudyRequest audit_study_request_from_json(const nlohmann::json& j);

struct AuditStudy {
  std::string markdown;   // the table (header and one line per row), as the CLI prints it
  nlohmann::json report;  // {"delta", "conversion", "rows": one object per (row, lemma)}
  bool violation = false;
};

// Runs the study on `executor`, writes request.out (atomically) when given, returns the table.
// progress(line) once per finished row (one call at a time, from the coordinator's threads).
// InputError for a bad request (before any search); BLAS runs on one thread meanwhile.
AuditStudy run_audit_study(const AuditStudyRequest& request, tasks::Executor& executor,
                           const std::function<void(const std::string&)>& progress = {});

}  // namespace gpdp::auditor
