#pragma once
// The grid mean (docs/privacy.md "The grid mean"): public cells over the declared domain, the
// Gaussian mechanism on each cell's clipped sum and count (the only private step: privacy/rdp.hpp
// grid_mean_rdp), and free post-processing of the released table: by default (GridMap::Gp) the GP
// fitted to the noisy cell means at the cell centres with their known noise variances
// (heteroscedastic), whose mean is the released map, whose excursion probability is its
// probability map, and whose sample paths answer lazy queries; or (GridMap::Cells) the classical
// map, each point's own noisy cell mean.
#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/domain.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/release/snapping.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::release {

// The UG rule's constant (Qardaji, Yang & Li 2013): C ≈ n ε / c cells, and the cap on C.
inline constexpr double kGridMeanUgConstant = 10.0;
inline constexpr long kGridMeanMaxCells = 2500;
// The grid mean's default cells hold at least this many records on average: C ≤ n / k. Measured
// on the utility frontier (docs/utility.md, "The grid mean's cell rule"): the UG count alone gives
// about one record per cell at ε = 10, and k = 5 beat k = 3, 4, 6, 10 and the uncapped rule.
inline constexpr double kGridMeanMinRecordsPerCell = 5.0;
// Cells with a noisy count below this are left out of the post-processing GP.
inline constexpr double kGridMeanMinCount = 1.0;

// The public cells: `counts` per axis of the domain box, cell k in grid order (first axis fastest).
struct CellLayout {
  Box domain;
  std::vector<long> counts;
  long size() const;
  Eigen::Index cell_of(const Eigen::VectorXd& x) const;  // the cell holding x (upper edge: last)
  Points centres() const;                                // size() x dim
  // "lo:hi" bounds of cell k per axis, for cells.csv.
  Box bounds(Eigen::Index k) const;
};
// `total` cells (rounded, clamped to [1, kGridMeanMaxCells]) split over the axes in proportion to
// the domain's sides (square cells as far as integer counts allow; never more than the cap).
CellLayout square_cells(const Box& domain, double total);
// The UG rule: C = n ε / c cells (square_cells). --mechanism auto's summary cells.
CellLayout ug_cells(const Box& domain, long n, double epsilon);
// The grid mean's default cells: the UG count, at most n / kGridMeanMinRecordsPerCell
// (square_cells): C = min(n ε / c, n / k). Public inputs only (n, ε, the domain).
CellLayout grid_mean_cells(const Box& domain, long n, double epsilon);

// The cells of a grid-mean mechanism: its domain (the model CRS's) and cells per axis.
CellLayout grid_mean_layout(const privacy::GpMechanism& m);

// The private aggregates: per cell the sum of the clipped responses and the count.
struct CellAggregates {
  Eigen::VectorXd sums;
  Eigen::VectorXd counts;
};
CellAggregates aggregate_cells(const CellLayout& layout, const Points& X, const Eigen::VectorXd& y);

// The released table: noisy sums and counts, each snapped to its public lattice.
struct CellTable {
  CellLayout layout;
  Eigen::VectorXd sums;    // S̃_c
  Eigen::VectorXd counts;  // Ñ_c
};
// {"domain": "lo:hi,...", "cells": [per axis], "sums": [...], "counts": [...]} (public: the
// release's cells.csv in another form); and back (InputError naming `source` when malformed).
nlohmann::json to_json(const CellTable& table);
CellTable cell_table_from_json(const nlohmann::json& j, const std::string& source);

// Lattices of the sums (std floor s_S, bound n M_Y + 40 s_S) and counts (s_N, n + 40 s_N).
Granularity sum_lattice(long n, double M_Y, double sum_noise);
Granularity count_lattice(long n, double count_noise);
// S̃ = S + s_S Z (all cells), then Ñ = N + s_N Z' (all cells), snapped.
CellTable noisy_table(const CellLayout& layout, const CellAggregates& exact, long n, double M_Y,
                      double sum_noise, double count_noise, Rng& rng);

// InputError naming `source` unless every sum and count lies on its lattice.
void check_on_lattices(const CellTable& table, const privacy::GpMechanism& m,
                       const std::string& source);

// The released map, a choice of post-processing (free, public): the post-processing GP's mean, or
// each point's own noisy cell mean (the classical noisy-grid map).
enum class GridMap { Gp, Cells };
GridMap parse_grid_map(const std::string& text);  // "gp" or "cells" (InputError otherwise)
std::string to_string(GridMap map);

// The table's prior mean μ₀ = clamp(Σ S̃/n, ±M_Y), and cell k's mean m̂ = clamp(S̃/max(Ñ, 1), ±M_Y).
double table_prior_mean(const CellTable& table, long n, double M_Y);
double cell_mean(const CellTable& table, Eigen::Index k, double M_Y);
// The cells map at `points` (rows, the layout's coordinates): m̂ of the cell holding each point
// where that cell's Ñ ≥ kGridMeanMinCount, else μ₀.
Eigen::VectorXd cell_means_map(const CellTable& table, const Points& points, long n, double M_Y);

// The post-processing GP (free): prior GP(μ₀, ψ² k) with ψ = M_Y, μ₀ = clamp(Σ S̃/n, ±M_Y); cells
// with Ñ ≥ 1 observe m̂ = clamp(S̃/Ñ, ±M_Y) with variance (s_S² + m̂² s_N²)/Ñ² + σ²r²/Ñ.
struct CellPosterior {
  double prior_mean = 0.0;
  std::vector<Eigen::Index> kept;  // cells used
  Eigen::VectorXd means;           // m̂ of the kept cells
  Eigen::VectorXd variances;       // v of the kept cells
  Posterior posterior;  // of f − μ₀ on the kept centres (scale ψ, noise weights v/ψ²r²)
};
CellPosterior cell_posterior(const CellTable& table, const Kernel& kernel, double r, double sigma,
                             long n, double M_Y, double sum_noise, double count_noise);
// The same with the mechanism's public parameters (kernel, r, σ, n, M_Y, s_S, s_N).
CellPosterior cell_posterior(const CellTable& table, const privacy::GpMechanism& m);
// The rounding lattice of the lazy path's answers: release_granularity with the kept cells as the
// data (their number, the smallest noise ridge r·√min w).
Granularity cell_path_lattice(const CellPosterior& p, double M_Y);

}  // namespace gpdp::release
