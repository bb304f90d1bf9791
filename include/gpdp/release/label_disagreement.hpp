#pragma once
// The calibrated preview's label statistic (docs/privacy.md "The label statistic", docs/utility.md
// "Label coherence"): how often records disagree with their close neighbours about the side of t.
// Over public cells of about kLabelRecordsPerCell records each, with a_c of the n_c records of cell
// c above t,
//
//   D = Σ_c min(a_c, n_c − a_c)   (the records on their cell's minority side)
//   P = Σ_c ⌊n_c / 2⌋             (the most D can be)
//
// released as (D + s Z₁, P + s Z₂), each snapped to its lattice. Replace-one with n public moves
// one record out of one cell and into one (or the same): D and P each change by at most 1, so the
// L2 sensitivity is √2 and ε_α = α/s² (privacy::MechanismKind::LabelDisagreement).
//
// The simulations of `gpdp preview --calibrate-epsilon` then weight a nugget ν (the share of the
// latent field that is independent per record) by how well the simulated D/P at each ν explains
// the released D̃/P̃: coherent labels (ν = 0) put few records on the minority side of small cells,
// independent ones many.
#include <Eigen/Core>
#include <array>
#include <nlohmann/json.hpp>
#include <vector>

#include "gpdp/domain.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::release {

inline constexpr double kLabelRecordsPerCell = 4.0;
// The nuggets the simulations weight, and their public prior (half on coherent labels, ν = 0).
inline constexpr std::array<double, 5> kLabelNuggets = {0.0, 0.25, 0.5, 0.75, 0.9};
inline constexpr std::array<double, 5> kLabelNuggetPrior = {0.5, 0.125, 0.125, 0.125, 0.125};
// Simulated data sets per nugget that estimate D/P's mean and spread under it.
inline constexpr int kLabelNuggetDraws = 8;

// The public cells of the statistic: square cells of about kLabelRecordsPerCell records (n public).
CellLayout label_cells(const Box& domain, long n);

struct LabelCounts {
  double disagreement = 0.0;  // D
  double pairs = 0.0;         // P
};
// D and P of the records at X (rows) whose side is `above` (> 0: above t).
LabelCounts label_counts(const CellLayout& cells, const Points& X, const Eigen::VectorXd& above);

// The statistic's Gaussian mechanism at noise s (n public).
privacy::GpMechanism label_mechanism(long n, double noise_scale);

// The released statistic.
struct LabelStatistic {
  CellLayout cells;
  LabelCounts noisy;  // D̃, P̃, snapped to count_lattice(n, s)
  double noise_scale = 0.0;
  long n = 0;
};
// D̃ = D + s Z₁, P̃ = P + s Z₂, snapped.
LabelStatistic noisy_label_statistic(const CellLayout& cells, const LabelCounts& exact, long n,
                                     double noise_scale, Rng& rng);
// {"cells", "disagreement", "pairs", "noise_scale", "ratio"} (ratio: D̃/P̃, null when P̃ < 1).
nlohmann::json to_json(const LabelStatistic& statistic);

// The posterior weights of kLabelNuggets given the released statistic: prior × the normal density
// of D̃/P̃ around the simulated ratios' mean at each nugget (one variance: the simulated ratios'
// spread about their nugget's mean, pooled over the nuggets, plus the noise through D̃/P̃,
// s²(1 + ρ̃²)/P̃²). `simulated[j]`: the simulated (D, P) at nugget j. The prior when P̃ < 2s (the
// ratio carries no information).
std::vector<double> nugget_weights(const LabelStatistic& statistic,
                                   const std::vector<std::vector<LabelCounts>>& simulated);

// The nugget of each of `count` simulated data sets: the weights' quantiles at (k + ½)/count
// (stratified, deterministic).
std::vector<double> stratified_nuggets(const std::vector<double>& weights, int count);

}  // namespace gpdp::release
