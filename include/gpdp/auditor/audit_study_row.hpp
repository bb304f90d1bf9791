#pragma once
// One row of gpdp-lab audit-study (privacy/audit_study.hpp): a setting of the study's fixed table
// (exponential kernel exp(−‖x−x'‖/ℓ) on [0,1]^d, M_Y = 1, η = 0, δ = 0.004) at one size n, with
// every applicable lemma's proven values (B.1, Lemma S.1 "b1-sharp", and B.7 in 1-D) beside what
// the two audits found: the gradient search at the lemmas' optimal orders α*, and the original
// Subplex search at B.1's α* (n ≤ 50, its own limit). A found value above a proven one is a
// VIOLATION (score_row).
#include <optional>
#include <string>
#include <vector>

#include "gpdp/auditor/audit.hpp"

namespace gpdp::auditor {

// A setting of the table.
struct StudySetting {
  int dim = 1;
  double ell = 1.0, r = 1.0, sigma = 1.0;
  std::string why;  // where it comes from ("issue #19 row 1", ...)
};

// The table: 5 settings in 2-D and 2 in 1-D, each at every size of study_sizes().
const std::vector<StudySetting>& study_settings();
const std::vector<long>& study_sizes();  // 1, 2, 5, 20, 50, 155
inline constexpr double kStudyDelta = 0.004;

// One lemma's column of a row.
struct StudyLemma {
  privacy::SensitivityLemma lemma = privacy::SensitivityLemma::B1;
  privacy::Guarantee proven;  // ε(δ) and α* (Mironov)
  double rdp_proven = 0;      // ε_α at α*
  double Delta_n = 0;         // the lemma's Δ_n
  double found = 0;           // gradient search: D_α at α*
  double found_today = -1;    // Subplex at α* (B.1 only; −1 = not run)
  bool violation = false;
};

struct StudyRow {
  StudySetting setting;
  long n = 0;
  std::vector<StudyLemma> lemmas;  // B.1, b1-sharp, (B.7 in 1-D): proven values by study_row
  AuditReport gradient;            // the audits, run by the study's driver
  std::optional<AuditReport> subplex;
  double seconds = 0;  // wall seconds from the study's start until this row's audits finished
};

// The row's proven side (no search yet).
StudyRow study_row(const StudySetting& setting, long n);
// The mechanism the audits search (Lemma B.1's; the lemma only changes the proven side).
privacy::GpMechanism study_mechanism(const StudySetting& setting, long n,
                                     privacy::SensitivityLemma lemma);
// The gradient audit: at every lemma's α*, the search's defaults up to n = 50, fewer starts and
// steps beyond (each evaluation costs O(n³)), no extra test points (η = 0: they cannot matter).
AuditSettings study_gradient_settings(const StudyRow& row);
// Whether the row runs the Subplex audit (n ≤ 50), and its settings: the original search with its
// defaults at B.1's α*.
bool runs_subplex(const StudyRow& row);
AuditSettings study_subplex_settings(const StudyRow& row);
// Fills each lemma's found values from the audits and flags a violation: the found D_α at α* above
// ε_α, the found mean sensitivity above Δ_n, or either search's ε(δ) lower bound above ε(δ).
// Returns whether any lemma of the row is violated.
bool score_row(StudyRow& row);

}  // namespace gpdp::auditor
