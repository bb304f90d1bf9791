#pragma once
// The paper's Tables 1–4 layout from StudyResults: one column per setting, rows
//   ε (unconstrained), d_eff (unconstrained), d_eff (ε < ε₀), relative BCE increase,
//   IoU (unconstrained), 1-path IoU mean and SD (ε < ε₀), relative IoU gap,
// each as median [IQR] over the pairs (ε is one number per setting: it depends on θ only),
// plus the selected θ, ε of θ_priv and the cutoffs C, c. Markdown for reading, CSV for scripts.
#include <string>
#include <vector>

#include "gpdp/experiments/utility_study.hpp"

namespace gpdp::experiments {

std::string utility_table_markdown(const std::vector<StudyResult>& results,
                                   const std::string& header);
// Long form: one row per setting, median/q1/q3 columns for each per-pair quantity.
std::string utility_table_csv(const std::vector<StudyResult>& results);

}  // namespace gpdp::experiments
