// gpdp reproduce ops-abalone | ops-adult: test accuracy against epsilon for OPS, the hybrid,
// DP-SGLD, ObjPert and OutPert, with the non-private line (Wang, Fienberg & Smola 2015, §5; their
// protocol is unknown, ours is in docs/ops.md). Writes ops-<data>.csv, ops-<data>.md,
// ops-<data>.png.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <vector>

#include "gpdp/io/atomic_file.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/ops/data_source.hpp"
#include "gpdp/ops/experiment.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/version.hpp"
#include "reproduce.hpp"

namespace gpdp::cli {

namespace {

using ops::Method;

// One target's runs: every method at every ε, after the non-private reference (rows[0]).
struct OpsRuns {
  ops::TabularSource source;
  std::vector<double> grid;  // ε
  int repeats;
  std::vector<Method> methods;
  ops::MethodOptions options;
  std::vector<ops::ExperimentSummary> rows;  // reference, then methods x grid
  std::chrono::steady_clock::time_point started;
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  const ops::ExperimentSummary& reference() const { return rows.front(); }
};

OpsRuns run_experiments(const std::string& data, const ReproduceOptions& r) {
  OpsRuns runs{ops::load_source(data, r.data_dir, "y"),
               r.quick ? std::vector<double>{0.1, 1.0, 10.0}
                       : std::vector<double>{0.03, 0.1, 0.3, 1.0, 3.0, 10.0},
               r.pairs > 0 ? static_cast<int>(r.pairs) : (r.quick ? 3 : 20),
               {Method::ops, Method::hybrid, Method::dpsgld, Method::objpert, Method::outpert},
               {},
               {},
               std::chrono::steady_clock::now()};
  ops::MethodOptions& m = runs.options;
  m.ops.hmc.chains = 2;
  m.ops.hmc.samples =
      100;  // kept iterations serve the diagnostics only; the release is the final state
  if (r.quick) {
    m.ops.hmc.warmup = 100;
    m.ops.hmc.samples = 50;
  }
  auto progress_for = [&](const std::string& label) {
    return [label, started = runs.started](int done, int total) {
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::fprintf(stderr, "\rreproduce %s: repeat %d/%d (%.0f s)", label.c_str(), done, total, s);
      if (done == total) std::fprintf(stderr, "\n");
    };
  };
  runs.rows.push_back(ops::run_experiment(runs.source, Method::nonprivate, 1.0, m, runs.repeats,
                                          r.seed, r.threads, progress_for("nonprivate")));
  for (const Method method : runs.methods) {
    for (const double eps : runs.grid) {
      runs.rows.push_back(
          ops::run_experiment(runs.source, method, eps, m, runs.repeats, r.seed, r.threads,
                              progress_for(fmt::format("{} eps={}", ops::to_string(method), eps))));
    }
  }
  return runs;
}

std::string ops_csv(const OpsRuns& runs) {
  std::string csv =
      "dataset,method,epsilon,delta,repeats,accuracy_mean,accuracy_se,max_rhat,min_ess\n";
  for (const auto& s : runs.rows) {
    csv += fmt::format("{},{},{},{},{},{},{},{},{}\n", runs.source.name, ops::to_string(s.method),
                       std::isfinite(s.epsilon) ? io::format_number(s.epsilon) : "inf",
                       io::format_number(s.delta), s.repeats, io::format_number(s.accuracy_mean),
                       io::format_number(s.accuracy_se), io::format_number(s.max_rhat),
                       io::format_number(s.min_ess));
  }
  return csv;
}

// Rows = methods, columns = ε.
std::string ops_markdown(const OpsRuns& runs, const ReproduceOptions& r) {
  const ops::MethodOptions& m = runs.options;
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
    md += "| " + ops::to_string(method) + " |";
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
    ax.line(runs.grid, mean, {.label = ops::to_string(method), .color = c});
    ax.scatter(runs.grid, mean, {.color = c});
  }
  ax.hline(runs.reference().accuracy_mean,
           {.label = "non-private", .color = plot::colors::gray, .dashed = true});
  ax.legend(plot::LegendPosition::lower_right);
  fig.save(path);
}

void run_target(const std::string& data, const ReproduceOptions& r) {
  const OpsRuns runs = run_experiments(data, r);
  const std::string stem = (std::filesystem::path(r.out_dir) / ("ops-" + data)).string();
  io::write_file_atomic(stem + ".csv", ops_csv(runs));
  io::write_file_atomic(stem + ".md", ops_markdown(runs, r));
  save_ops_figure(runs, r, stem + ".png");
  std::fprintf(stderr, "reproduce ops-%s: wrote %s.csv, .md, .png\n", data.c_str(), stem.c_str());
}

const bool registered_abalone = register_reproduction(
    {"ops-abalone", "Accuracy vs epsilon of OPS/hybrid/DP-SGLD/ObjPert/OutPert, UCI Abalone",
     [](const ReproduceOptions& r) { run_target("abalone", r); }});
const bool registered_adult = register_reproduction(
    {"ops-adult", "Accuracy vs epsilon of OPS/hybrid/DP-SGLD/ObjPert/OutPert, UCI Adult",
     [](const ReproduceOptions& r) { run_target("adult", r); }});

}  // namespace
}  // namespace gpdp::cli
