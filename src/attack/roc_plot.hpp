#pragma once
// ROC panels of the attack with the (ε, δ) region overlaid: the curve the guarantee allows,
// TPR ≤ min{e^ε FPR + δ, 1 − e^{−ε}(1 − δ − FPR)} (dp_max_tpr), drawn dashed next to the
// attack's evaluation ROC of every seed.
#include <string>
#include <vector>

#include "gpdp/attack/lira.hpp"
#include "gpdp/plot/axes.hpp"

namespace gpdp::attack {

// One panel: the seeds' ROC curves (thin lines, one colour), the chance diagonal, and the DP
// bound for (epsilon, delta) when epsilon is finite. loglog: both axes logarithmic from 1e-4.
void draw_roc(plot::Axes& ax, const std::vector<SeedOutcome>& seeds, double epsilon, double delta,
              bool loglog, const std::string& label);

// ROC points of every seed as CSV rows "seed,fpr,tpr" (with header).
std::string roc_csv(const std::vector<SeedOutcome>& seeds);

}  // namespace gpdp::attack
