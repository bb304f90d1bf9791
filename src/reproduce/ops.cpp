// Test accuracy against epsilon for OPS, the hybrid, DP-SGLD, ObjPert and OutPert, with the
// non-private line (Wang, Fienberg & Smola 2015, §5; their protocol is unknown, ours is in
// docs/ops.md): what `gpdp-lab reproduce ops-abalone|ops-adult` and `python -m gpdp.distributed
// reproduce ops-abalone|ops-adult` run. Writes ops-<data>.csv, ops-<data>.md, ops-<data>.png.
#include "ops.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/ops/experiment.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/version.hpp"
#include "io/atomic_file.hpp"
#include "ops/experiment_tasks.hpp"

namespace gpdp::reproduce {

namespace {

using namespace gpdp::ops;
using ReproduceOptions = Options;

// One target's runs: every method at every ε, after the non-private reference (rows[0]).
struct OpsRuns {
  const TabularSource& source;
  std::vector<double> grid;  // ε
  int repeats;
  std::vector<Method> methods;
  MethodOptions options;
  std::vector<ExperimentSummary> rows;  // reference, then methods x grid
  std::chrono::steady_clock::time_point started;
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  const ExperimentSummary& reference() const { return rows.front(); }
};

OpsRuns run_experiments(const std::string& data, const ReproduceOptions& r,
                        tasks::Executor& executor) {
  const SourceRef ref{data, r.data_dir, "y"};
  OpsRuns runs{shared_source(ref),
               r.quick ? std::vector<double>{0.1, 1.0, 10.0}
                       : std::vector<double>{0.03, 0.1, 0.3, 1.0, 3.0, 10.0},
               r.pairs > 0 ? static_cast<int>(r.pairs) : (r.quick ? 3 : 20),
               {Method::ops, Method::hybrid, Method::dpsgld, Method::objpert, Method::outpert},
               {},
               {},
               std::chrono::steady_clock::now()};
  MethodOptions& m = runs.options;
  m.ops.hmc.chains = 2;
  m.ops.hmc.samples =
      100;  // kept iterations serve the diagnostics only; the release is the final state
  if (r.quick) {
    m.ops.hmc.warmup = 100;
    m.ops.hmc.samples = 50;
  }
  // Every repeat of every row in one task list: the reference, then methods x grid.
  std::vector<std::pair<Method, double>> rows{{Method::nonprivate, 1.0}};
  for (const Method method : runs.methods) {
    for (const double eps : runs.grid) rows.emplace_back(method, eps);
  }
  std::vector<tasks::Task> list;
  for (const auto& [method, eps] : rows) {
    for (auto& t : experiment_tasks(ref, method, eps, m, runs.repeats, r.seed)) {
      list.push_back(std::move(t));
    }
  }
  const auto started = runs.started;
  const auto results = executor.map(list, [&data, started](long done, long total) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::fprintf(stderr, "\rreproduce ops-%s: repeat %ld/%ld (%.0f s)", data.c_str(), done, total,
                 s);
    if (done == total) std::fprintf(stderr, "\n");
  });
  const auto per_row = static_cast<std::size_t>(runs.repeats);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<RepeatOutcome> outcomes;
    for (std::size_t k = 0; k < per_row; ++k) {
      outcomes.push_back(results[i * per_row + k].get<RepeatOutcome>());
    }
    runs.rows.push_back(summarise_experiment(rows[i].first, rows[i].second, m, r.seed, outcomes));
  }
  return runs;
}

std::string ops_csv(const OpsRuns& runs) {
  std::string csv =
      "dataset,method,epsilon,delta,repeats,accuracy_mean,accuracy_se,max_rhat,min_ess\n";
  for (const auto& s : runs.rows) {
    csv += fmt::format("{},{},{},{},{},{},{},{},{}\n", runs.source.name, to_string(s.method),
                       std::isfinite(s.epsilon) ? io::format_number(s.epsilon) : "inf",
                       io::format_number(s.delta), s.repeats, io::format_number(s.accuracy_mean),
                       io::format_number(s.accuracy_se), io::format_number(s.max_rhat),
                       io::format_number(s.min_ess));
  }
  return csv;
}

// Rows = methods, columns = ε.
std::string ops_markdown(const OpsRuns& runs, const ReproduceOptions& r) {
  const MethodOptions& m = runs.options;
  std::string md = fmt::format(
      "# Private logistic regression on {} (gpdp {})\n\n{}. Test accuracy, mean ± standard error "
      "over "
      "{} repeats{}. Seed {} (seeded experiment, not a private release). R = {}, prior sd {}, OPS "
      "calibration 4B, HMC {} chains x ({} warm-up + {} kept) iterations, integration time {} x "
      "U(0.6, 1.4), at most {} leapfrog steps, Lambda = {}, "
      "DP-SGLD delta = {}, hybrid split {}. Run time {:.0f} s.\n\n| method |",
      runs.source.name, kVersion, runs.source.description, runs.repeats,
      r.quick ? " (QUICK run: reduced sizes)" : "", r.seed, m.radius, m.ops.prior_sd,
      m.ops.hmc.chains, m.ops.hmc.warmup, m.ops.hmc.samples, m.ops.hmc.integration_time,
      m.ops.hmc.leapfrog_steps, m.lambda, m.dpsgld.delta, m.hybrid_split, runs.seconds());
  for (const double e : runs.grid) md += fmt::format(" ε={} |", e);
  md += "\n|---|";
  for (std::size_t k = 0; k < runs.grid.size(); ++k) md += "---|";
  md += "\n";
  std::size_t idx = 1;
  for (const Method method : runs.methods) {
    md += "| " + to_string(method) + " |";
    for (std::size_t k = 0; k < runs.grid.size(); ++k, ++idx) {
      md += fmt::format(" {:.3f} ± {:.3f} |", runs.rows[idx].accuracy_mean,
                        runs.rows[idx].accuracy_se);
    }
    md += "\n";
  }
  md += fmt::format("\nNon-private (Lambda = {}): {:.3f} ± {:.3f}.\n", m.nonprivate_lambda,
                    runs.reference().accuracy_mean, runs.reference().accuracy_se);
  return md;
}

// Mean ± s.e. bands against log ε.
void save_ops_figure(const OpsRuns& runs, const ReproduceOptions& r, const std::string& path) {
  plot::Figure fig(900, 600);
  auto& ax = fig.panel();
  ax.title(fmt::format("Private logistic regression, {} ({} repeats{})", runs.source.name,
                       runs.repeats, r.quick ? ", quick" : ""))
      .xlabel("ε")
      .ylabel("test accuracy")
      .xlog();
  std::size_t idx = 1;
  int colour = 0;
  for (const Method method : runs.methods) {
    const plot::Color c = plot::cycle_color(colour++);
    std::vector<double> mean, lo, hi;
    for (std::size_t k = 0; k < runs.grid.size(); ++k, ++idx) {
      mean.push_back(runs.rows[idx].accuracy_mean);
      lo.push_back(runs.rows[idx].accuracy_mean - runs.rows[idx].accuracy_se);
      hi.push_back(runs.rows[idx].accuracy_mean + runs.rows[idx].accuracy_se);
    }
    ax.band(runs.grid, lo, hi, {.color = c});
    ax.line(runs.grid, mean, {.label = to_string(method), .color = c});
    ax.scatter(runs.grid, mean, {.color = c});
  }
  ax.hline(runs.reference().accuracy_mean,
           {.label = "non-private", .color = plot::colors::gray, .dashed = true});
  ax.legend(plot::LegendPosition::lower_right);
  fig.save(path);
}

}  // namespace

std::vector<Target> ops_targets() {
  return {{"ops-abalone", "Accuracy vs epsilon of OPS/hybrid/DP-SGLD/ObjPert/OutPert, UCI Abalone"},
          {"ops-adult", "Accuracy vs epsilon of OPS/hybrid/DP-SGLD/ObjPert/OutPert, UCI Adult"}};
}

void run_ops(const std::string& name, const Options& r, tasks::Executor& executor) {
  require(name == "ops-abalone" || name == "ops-adult",
          fmt::format("reproduce: '{}' is not an OPS target (ops-abalone, ops-adult)", name));
  require(!r.out_dir.empty(), "reproduce: the output folder is required");
  std::filesystem::create_directories(r.out_dir);
  const std::string data = name.substr(4);
  const OpsRuns runs = run_experiments(data, r, executor);
  const std::string stem = (std::filesystem::path(r.out_dir) / name).string();
  io::write_file_atomic(stem + ".csv", ops_csv(runs));
  io::write_file_atomic(stem + ".md", ops_markdown(runs, r));
  save_ops_figure(runs, r, stem + ".png");
  std::fprintf(stderr, "reproduce %s: wrote %s.csv, .md, .png\n", name.c_str(), stem.c_str());
}

}  // namespace gpdp::reproduce
