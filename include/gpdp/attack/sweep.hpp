#pragma once
// Many attack configurations over many seeds, on all cores, with progress. Work items are
// (r, seed) pairs (the shadow datasets of one r and seed are shared by all releases); every item
// owns its random streams (see run_lira), so results do not depend on the number of threads.
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "gpdp/attack/lira.hpp"

namespace gpdp::attack {

struct SweepPoint {
  double r;
  std::vector<ReleaseSetting> releases;
};

struct SweepOptions {
  LiraOptions lira;
  int seeds = 10;
  std::uint64_t base_seed = 20260616;  // seed i is base_seed + i
  int threads = 0;                     // 0 = hardware concurrency
  // Called (from worker threads, serialised) after each finished item: (done, total).
  std::function<void(long, long)> progress;
};

// results[point][seed][release]
using SweepResults = std::vector<std::vector<std::vector<SeedOutcome>>>;
SweepResults run_sweep(const std::vector<SweepPoint>& points, const SweepOptions& options);

// Mean and sample standard deviation over seeds.
struct MeanSd {
  double mean = 0.0;
  double sd = 0.0;
};
struct AttackSummary {
  MeanSd auc;
  std::array<MeanSd, 3> tpr;         // at kFprLevels
  std::array<MeanSd, 3> excess_tpr;  // TPR − FPR
  MeanSd epsilon_estimate;           // empirical ε (point estimate)
  MeanSd epsilon_lower;              // 95 % lower confidence bound
  int seeds = 0;
};
// outcomes: one per seed, all for the same configuration.
AttackSummary summarise(const std::vector<SeedOutcome>& outcomes);
// Convenience: the outcomes of release k of point p across seeds.
std::vector<SeedOutcome> across_seeds(const SweepResults& results, std::size_t point,
                                      std::size_t release);

// A stderr progress line "label: done/total (pct) elapsed, ETA" rewritten in place.
std::function<void(long, long)> stderr_progress(const std::string& label);

}  // namespace gpdp::attack
