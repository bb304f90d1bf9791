#pragma once
// gpdp-lab audit-study's output (internal): the markdown table, one line per row, and the JSON of
// each row, one object per lemma with the witnesses (privacy/audit_study.hpp).
#include <nlohmann/json.hpp>
#include <string>

#include "gpdp/auditor/audit_study_row.hpp"

namespace gpdp::auditor {

// The table's header and separator lines.
std::string study_markdown_header();
// The row's line (after score_row): B.1's α* and ratios, every lemma's ε and Δ_n, the witness.
std::string study_markdown_line(const StudyRow& row);
// The row's lemmas as JSON objects (after score_row), appended to `rows`.
void append_study_json(const StudyRow& row, nlohmann::json& rows);

}  // namespace gpdp::auditor
