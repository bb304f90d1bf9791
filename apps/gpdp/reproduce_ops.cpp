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

void run_target(const std::string& data, const ReproduceOptions& r) {
  const ops::TabularSource source = ops::load_source(data, r.data_dir, "y");
  const std::vector<double> grid = r.quick ? std::vector<double>{0.1, 1.0, 10.0}
                                           : std::vector<double>{0.03, 0.1, 0.3, 1.0, 3.0, 10.0};
  const int repeats = r.pairs > 0 ? static_cast<int>(r.pairs) : (r.quick ? 3 : 20);
  const std::vector<Method> methods = {Method::ops, Method::hybrid, Method::dpsgld, Method::objpert,
                                       Method::outpert};
  ops::MethodOptions m;
  m.ops.hmc.chains = 2;
  m.ops.hmc.samples =
      100;  // kept iterations serve the diagnostics only; the release is the final state
  if (r.quick) {
    m.ops.hmc.warmup = 100;
    m.ops.hmc.samples = 50;
  }
  const auto started = std::chrono::steady_clock::now();
  auto progress_for = [&](const std::string& label) {
    return [label, started](int done, int total) {
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::fprintf(stderr, "\rreproduce %s: repeat %d/%d (%.0f s)", label.c_str(), done, total, s);
      if (done == total) std::fprintf(stderr, "\n");
    };
  };
  std::vector<ops::ExperimentSummary> rows;
  const auto reference = ops::run_experiment(source, Method::nonprivate, 1.0, m, repeats, r.seed,
                                             r.threads, progress_for("nonprivate"));
  rows.push_back(reference);
  for (const Method method : methods) {
    for (const double eps : grid) {
      rows.push_back(
          ops::run_experiment(source, method, eps, m, repeats, r.seed, r.threads,
                              progress_for(fmt::format("{} eps={}", ops::to_string(method), eps))));
    }
  }

  // CSV.
  std::string csv =
      "dataset,method,epsilon,delta,repeats,accuracy_mean,accuracy_se,max_rhat,min_ess\n";
  for (const auto& s : rows) {
    csv += fmt::format("{},{},{},{},{},{},{},{},{}\n", source.name, ops::to_string(s.method),
                       std::isfinite(s.epsilon) ? io::format_number(s.epsilon) : "inf",
                       io::format_number(s.delta), s.repeats, io::format_number(s.accuracy_mean),
                       io::format_number(s.accuracy_se), io::format_number(s.max_rhat),
                       io::format_number(s.min_ess));
  }
  const std::string stem = (std::filesystem::path(r.out_dir) / ("ops-" + data)).string();
  io::write_file_atomic(stem + ".csv", csv);

  // Markdown table: rows = methods, columns = epsilon.
  std::string md = fmt::format(
      "# Private logistic regression on {} (gpdp {})\n\n{}. Test accuracy, mean ± standard error "
      "over "
      "{} repeats{}. Seed {} (seeded experiment, not a private release). R = {}, prior sd {}, OPS "
      "calibration 4B, HMC {} chains x ({} warm-up + {} kept) iterations, integration time {} x "
      "U(0.6, 1.4), at most {} leapfrog steps, Lambda = {}, "
      "DP-SGLD delta = {}, hybrid split {}. Run time {:.0f} s.\n\n| method |",
      source.name, kVersion, source.description, repeats,
      r.quick ? " (QUICK run: reduced sizes)" : "", r.seed, m.radius, m.ops.prior_sd,
      m.ops.hmc.chains, m.ops.hmc.warmup, m.ops.hmc.samples, m.ops.hmc.integration_time,
      m.ops.hmc.leapfrog_steps, m.lambda, m.dpsgld.delta, m.hybrid_split,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  for (const double e : grid) md += fmt::format(" ε={} |", e);
  md += "\n|---|";
  for (std::size_t k = 0; k < grid.size(); ++k) md += "---|";
  md += "\n";
  std::size_t idx = 1;
  for (const Method method : methods) {
    md += "| " + ops::to_string(method) + " |";
    for (std::size_t k = 0; k < grid.size(); ++k, ++idx) {
      md += fmt::format(" {:.3f} ± {:.3f} |", rows[idx].accuracy_mean, rows[idx].accuracy_se);
    }
    md += "\n";
  }
  md += fmt::format("\nNon-private (Lambda = {}): {:.3f} ± {:.3f}.\n", m.nonprivate_lambda,
                    reference.accuracy_mean, reference.accuracy_se);
  io::write_file_atomic(stem + ".md", md);

  // Figure: mean ± s.e. bands against log ε.
  plot::Figure fig(900, 600);
  auto& ax = fig.panel();
  ax.title(fmt::format("Private logistic regression, {} ({} repeats{})", source.name, repeats,
                       r.quick ? ", quick" : ""))
      .xlabel("ε")
      .ylabel("test accuracy")
      .xlog();
  idx = 1;
  int colour = 0;
  for (const Method method : methods) {
    const plot::Color c = plot::cycle_color(colour++);
    std::vector<double> mean, lo, hi;
    for (std::size_t k = 0; k < grid.size(); ++k, ++idx) {
      mean.push_back(rows[idx].accuracy_mean);
      lo.push_back(rows[idx].accuracy_mean - rows[idx].accuracy_se);
      hi.push_back(rows[idx].accuracy_mean + rows[idx].accuracy_se);
    }
    ax.band(grid, lo, hi, {.color = c});
    ax.line(grid, mean, {.label = ops::to_string(method), .color = c});
    ax.scatter(grid, mean, {.color = c});
  }
  ax.hline(reference.accuracy_mean,
           {.label = "non-private", .color = plot::colors::gray, .dashed = true});
  ax.legend(plot::LegendPosition::lower_right);
  fig.save(stem + ".png");
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
