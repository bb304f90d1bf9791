#pragma once
// Post-processing of released sample paths (paper §5 and App. D.1): the excursion set read from
// L paths by vote, and the optional Gaussian smoothing of each path before the vote. These are
// the functions `gpdp release` ships; the utility study (experiments/utility_study.cpp) and
// `gpdp-lab reproduce fig4-lucas` call the same ones, so the study measures exactly what ships.
//   Ω̂ = { x : (1/L) Σ_l 1{f⁽ˡ⁾(x) ≥ t} ≥ c }
// Every function takes path values and public constants only, never a Posterior, μ_D or k_D, so
// what it returns inherits the (ε, δ) guarantee of the paths.
#include <Eigen/Core>
#include <optional>
#include <vector>

#include "gpdp/grid.hpp"

namespace gpdp::release {

// Fraction of the L paths (columns of `paths`, L ≥ 1) at or above `level` at each point (row).
Eigen::VectorXd vote_fraction(const Eigen::Ref<const Eigen::MatrixXd>& paths, double level);

// The vote set's indicator: 1 where the fraction is ≥ `cutoff` c ∈ (0, 1], else 0. Comparing the
// fraction (not a count against c·L) keeps c = k/L exact: both sides are the same double.
Eigen::VectorXd vote_set(const Eigen::VectorXd& fractions, double cutoff);

// Gaussian filter of each column of `fields` (values at grid.points(), NaN = blank cell, e.g.
// outside a mask), separable along the grid's axes, standard deviation `bandwidth` in coordinate
// units, cut at 3 standard deviations. Edge rule: each cell becomes the weighted mean of the
// non-blank cells inside the filter's window, renormalised by their weights; cells beyond the
// grid's edge are treated exactly like blank cells (left out, not mirrored). One rule thus serves
// the rectangle's edge and a mask's edge, which a reflecting boundary cannot (it would mirror
// across the rectangle but not across the mask); a constant field stays constant up to rounding.
// Blank cells stay NaN. bandwidth ≤ 0 returns `fields` unchanged.
Eigen::MatrixXd smooth_fields(const Eigen::Ref<const Eigen::MatrixXd>& fields, const Grid& grid,
                              double bandwidth);

// The released set of a release's fields, as `gpdp release` reads it (public constants only):
// each field smoothed first (smooth > 0: smooth_fields on `grid`, of which the fields are the rows
// `cells`, or every row in grid order when `cells` is empty), then the vote set
// {fraction of the fields ≥ level is ≥ cutoff}.
struct ExcursionRule {
  double level = 0.0;   // the threshold in model units
  double cutoff = 0.5;  // vote cutoff c ∈ (0, 1]
  double smooth = 0.0;  // Gaussian filter bandwidth in the grid's coordinates; 0 = none
  std::optional<Grid> grid;
  std::vector<Eigen::Index> cells;
};
// The fields the set is read from: `fields` smoothed by the rule (or as they are).
Eigen::MatrixXd excursion_fields(const ExcursionRule& rule, const Eigen::MatrixXd& fields);
// 1/0 per point: vote_set(vote_fraction(set_fields, level), cutoff).
Eigen::VectorXd excursion_set(const ExcursionRule& rule, const Eigen::MatrixXd& set_fields);

}  // namespace gpdp::release
