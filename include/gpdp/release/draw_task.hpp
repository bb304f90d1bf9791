#pragma once
// The draw of a release as plain data, so that it can run where the ledger is not (a batch's
// workers, docs/security.md "Batch releases"): DrawSpec is everything the draw needs and nothing
// else (the prepared records in model units, the mechanism's public parameters, the evaluation
// points in the model CRS, L, the sampler, and a seed only for a seeded, NOT private, release);
// draw_snapped() makes the L exact draws with the secure generator (or the seed's) and snaps them
// to the public lattice. A worker returns the snapped values only; the coordinator rebuilds the
// lattice from the public parameters and checks every value lies on it.
//
// `gpdp release` draws through the same function (stages.hpp draw_and_snap), keeping the paths'
// state when it keeps the path.
#include <Eigen/Core>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/grid.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/snapping.hpp"
#include "gpdp/samplers/sample_path.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "gpdp/tasks/task.hpp"

namespace gpdp::release {

struct DrawSpec {
  Eigen::MatrixXd X;  // the records' covariates (model CRS) and responses (model units)
  Eigen::VectorXd y;
  privacy::GpMechanism mechanism;  // kernel, θ, η or s, kind, n, M_Y (what the lattice needs)
  Points points;                   // the evaluation points, model CRS
  // With a grid in the model CRS: the grid and the evaluated cells (all of them when empty).
  std::optional<Grid> grid;
  std::vector<Eigen::Index> cells;
  int draws = 1;
  double level = 0.0;              // the threshold in model units (the grid mean's probability map)
  GridMap grid_map = GridMap::Gp;  // the grid mean's released map (post-processing of its table)
  // The GP prior's mean m₀ (model units, request.hpp PriorMeanSpec): a public value, or, with
  // prior_mean_noise > 0, drawn first as clamp(mean(y) + s·z, ±M_Y). The GP mechanism then runs on
  // the responses re-clipped about it from `unclipped` (after the transform, before clipping), and
  // its released values are m₀ + its output.
  std::optional<double> prior_mean;
  double prior_mean_noise = 0.0;
  Eigen::VectorXd unclipped;
  SamplerMethod sampler = SamplerMethod::Auto;
  std::optional<std::uint64_t> insecure_seed;  // NOT PRIVATE when set
};

// Plain data both ways (doubles exact through CBOR). The JSON carries the private records: it
// goes to trusted workers only.
nlohmann::json to_json(const DrawSpec& spec);
DrawSpec draw_spec_from_json(const nlohmann::json& j);

// The released lattice of the mechanism (public parameters only; the grid mean: its sums').
Granularity lattice_of(const privacy::GpMechanism& mechanism);

struct SnappedDraws {
  // m x L, on the lattice; the grid mean: its post-processing mean (m x 1), computed from `table`
  Eigen::MatrixXd values;
  std::optional<CellTable> table;  // the grid mean's released table (snapped): the DP output
  Eigen::VectorXd probability;     // the grid mean's (GP map) P(f ≥ t) map; empty for the others
  std::optional<double> prior_mean;  // the prior mean the values are offset by (drawn or public)
  std::string sampler;               // the exact method that drew the first path
  std::string rng;                   // which generator drew them
  std::vector<SamplePath> paths;     // private state, only when asked to keep it
};
SnappedDraws draw_snapped(const DrawSpec& spec, bool keep_paths);

// A worker's answer: {"values": [[column 1], ...], "sampler", "rng"} (the grid mean: "table" with
// the noisy sums and counts instead of values); and back, checking the shape (m x L), the generator
// and that every value is a point of `lattice` (the grid mean: every sum and count on its lattice,
// and the map recomputed here from the table; InputError naming `source` otherwise).
nlohmann::json to_json(const SnappedDraws& draws);
SnappedDraws snapped_draws_from_json(const nlohmann::json& j, const DrawSpec& spec,
                                     const Granularity& lattice, const std::string& source);

// The task a batch's workers run (gpdp::tasks, kind "release.draw"): params = to_json(DrawSpec),
// result = to_json(draw_snapped(spec, false)).
inline constexpr const char* kDrawTaskKind = "release.draw";
nlohmann::json draw_task(const nlohmann::json& params);
// The release module's task kinds (src/commands/builtin_tasks.cpp registers them).
std::vector<tasks::TaskKind> release_tasks();

}  // namespace gpdp::release
