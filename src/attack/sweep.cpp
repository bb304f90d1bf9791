#include "gpdp/attack/sweep.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "gpdp/error.hpp"
#include "lira_json.hpp"

namespace gpdp::attack {

std::vector<tasks::Task> sweep_tasks(const std::vector<SweepPoint>& points,
                                     const SweepOptions& options) {
  require_parameter(options.seeds >= 1, "seeds",
                    fmt::format("attack: seeds must be ≥ 1, got {}", options.seeds));
  std::vector<tasks::Task> list;
  for (const auto& point : points) {
    for (int s = 0; s < options.seeds; ++s) {
      list.push_back({"attack.lira",
                      {{"options", options.lira},
                       {"r", point.r},
                       {"releases", point.releases},
                       {"seed", options.base_seed + static_cast<std::uint64_t>(s)}}});
    }
  }
  return list;
}

SweepResults run_sweep(const std::vector<SweepPoint>& points, const SweepOptions& options,
                       tasks::Executor& executor) {
  const auto n_seeds = static_cast<std::size_t>(options.seeds);
  const auto outcomes = executor.map(sweep_tasks(points, options), options.progress);
  SweepResults results(points.size(), std::vector<std::vector<SeedOutcome>>(n_seeds));
  for (std::size_t item = 0; item < outcomes.size(); ++item) {
    results[item / n_seeds][item % n_seeds] = outcomes[item].get<std::vector<SeedOutcome>>();
  }
  return results;
}

namespace {
MeanSd mean_sd(const std::vector<double>& v) {
  MeanSd m;
  if (v.empty()) return m;
  for (double x : v) m.mean += x;
  m.mean /= static_cast<double>(v.size());
  if (v.size() > 1) {
    double ss = 0.0;
    for (double x : v) ss += (x - m.mean) * (x - m.mean);
    m.sd = std::sqrt(ss / static_cast<double>(v.size() - 1));
  }
  return m;
}
}  // namespace

AttackSummary summarise(const std::vector<SeedOutcome>& outcomes) {
  AttackSummary s;
  s.seeds = static_cast<int>(outcomes.size());
  std::vector<double> a, el, ee;
  std::array<std::vector<double>, 3> t, x;
  for (const auto& o : outcomes) {
    a.push_back(o.metrics.auc);
    ee.push_back(o.metrics.epsilon.estimate);
    el.push_back(o.metrics.epsilon.lower);
    for (std::size_t k = 0; k < 3; ++k) {
      t[k].push_back(o.metrics.tpr[k]);
      x[k].push_back(o.metrics.tpr[k] - kFprLevels[k]);
    }
  }
  s.auc = mean_sd(a);
  s.epsilon_estimate = mean_sd(ee);
  s.epsilon_lower = mean_sd(el);
  for (std::size_t k = 0; k < 3; ++k) {
    s.tpr[k] = mean_sd(t[k]);
    s.excess_tpr[k] = mean_sd(x[k]);
  }
  return s;
}

std::vector<SeedOutcome> across_seeds(const SweepResults& results, std::size_t point,
                                      std::size_t release) {
  std::vector<SeedOutcome> out;
  for (const auto& seed : results.at(point)) out.push_back(seed.at(release));
  return out;
}

std::function<void(long, long)> stderr_progress(const std::string& label) {
  const auto start = std::chrono::steady_clock::now();
  return [label, start](long done, long total) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double eta =
        done > 0 ? elapsed * static_cast<double>(total - done) / static_cast<double>(done) : 0.0;
    fmt::print(stderr, "\r{}: {}/{} ({:.0f}%) {:.0f}s elapsed, ~{:.0f}s left   {}", label, done,
               total, 100.0 * static_cast<double>(done) / static_cast<double>(total), elapsed, eta,
               done == total ? "\n" : "");
    std::fflush(stderr);
  };
}

}  // namespace gpdp::attack
