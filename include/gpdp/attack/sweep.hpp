#pragma once
// Many attack configurations over many seeds, with progress. Work items are (r, seed) pairs (the
// shadow datasets of one r and seed are shared by all releases), each an "attack.lira" task
// (attack/tasks.hpp) run by an executor (threads in the CLI, Dask workers from Python); every item
// owns its random streams (see run_lira), so results do not depend on the executor or on the number
// of workers.
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "gpdp/attack/lira.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::attack {

struct SweepPoint {
  double r;
  std::vector<ReleaseSetting> releases;
};

struct SweepOptions {
  LiraOptions lira;
  int seeds = 10;
  std::uint64_t base_seed = 20260616;  // seed i is base_seed + i
  // Called (serialised) after each finished item: (done, total).
  std::function<void(long, long)> progress;
};

// results[point][seed][release]
using SweepResults = std::vector<std::vector<std::vector<SeedOutcome>>>;
// The sweep's task list: item p·seeds + s is point p with seed base_seed + s.
std::vector<tasks::Task> sweep_tasks(const std::vector<SweepPoint>& points,
                                     const SweepOptions& options);
SweepResults run_sweep(const std::vector<SweepPoint>& points, const SweepOptions& options,
                       tasks::Executor& executor);

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
