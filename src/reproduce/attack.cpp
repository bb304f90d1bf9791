// The membership-inference figures of paper §4 and App. C (docs/mathematics.md §4), each
// configuration next to its (ε, δ) bound (δ = 0.05, Lemma B.7, κ = e^{−1/ℓ}): what `gpdp-lab
// reproduce fig2|fig3|fig5|fig6` and `python -m gpdp.distributed reproduce fig2|...` run. Every
// target writes CSV + Markdown + one PNG per panel (and the panels side by side) into the output
// folder. The paper does not list its σ/r/L grids; the grids below are stated in docs/attack.md.
#include "attack.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "attack/roc_plot.hpp"
#include "gpdp/attack/bound.hpp"
#include "gpdp/attack/sweep.hpp"
#include "gpdp/error.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/version.hpp"
#include "io/atomic_file.hpp"

namespace gpdp::reproduce {

namespace {

namespace ga = gpdp::attack;

constexpr double kDelta = 0.05;

struct Scale {
  long datasets;  // shadow = evaluation datasets per hypothesis
  int seeds;
  bool quick;
};

Scale scale_of(const Options& o) {
  Scale s{o.quick ? 2000L : 10000L, o.quick ? 3 : 10, o.quick};
  if (o.pairs > 0) s.datasets = o.pairs;
  return s;
}

privacy::Conversion conversion_of(const Options& o) {
  return privacy::parse_conversion(o.conversion);
}

std::string path_in(const Options& o, const std::string& name) {
  return (std::filesystem::path(o.out_dir) / name).string();
}

std::string sigma_label(double sigma) {
  return std::isinf(sigma) ? std::string("σ = ∞") : fmt::format("σ = {:g}", sigma);
}
std::string sigma_csv(double sigma) {
  return std::isinf(sigma) ? "inf" : fmt::format("{:g}", sigma);
}

std::string run_header(const std::string& target, const Scale& s, const Options& o) {
  return fmt::format(
      "gpdp {} reproduce {}: {} shadow + {} evaluation datasets per hypothesis, {} seed(s) from {} "
      "(seeded xoshiro256**, experiment, NOT private){}; bound: δ = {:g}, Lemma B.7, conversion {}",
      GPDP_VERSION_STRING, target, s.datasets, s.datasets, s.seeds, o.seed,
      s.quick ? ", QUICK run (reduced sizes)" : "", kDelta, o.conversion);
}

ga::SweepOptions sweep_options(const Scale& s, const Options& o, const std::string& label) {
  ga::SweepOptions so;
  so.lira.sizes = {s.datasets, s.datasets};
  so.lira.delta = kDelta;
  so.seeds = s.seeds;
  so.base_seed = o.seed;
  so.progress = ga::stderr_progress(label);
  return so;
}

// ---- Figure 2 / Figure 5 (left): attack vs ε for several σ, L = 1 ------------------------------

const std::vector<double> kSigmas{0.5, 1.0, 5.0, INFINITY};

std::vector<double> r_grid(bool quick) {
  if (quick) return {0.1, 0.3, 1.0, 3.0, 10.0};
  return {0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0};
}

struct SigmaSweep {
  std::vector<double> rs;
  ga::SweepResults results;                             // [r][seed][σ]
  std::vector<std::vector<privacy::Guarantee>> bounds;  // [r][σ]
};

SigmaSweep run_sigma_sweep(const Scale& s, const Options& o, const std::string& label,
                           tasks::Executor& executor) {
  SigmaSweep sw;
  sw.rs = r_grid(s.quick);
  std::vector<ga::SweepPoint> points;
  const ga::ShadowSetting shadow;
  for (double r : sw.rs) {
    ga::SweepPoint p{r, {}};
    std::vector<privacy::Guarantee> b;
    for (double sigma : kSigmas) {
      p.releases.push_back({sigma, 1});
      b.push_back(ga::attack_guarantee(shadow, r, sigma, 1, kDelta, conversion_of(o)));
    }
    points.push_back(p);
    sw.bounds.push_back(b);
  }
  sw.results = ga::run_sweep(points, sweep_options(s, o, label), executor);
  return sw;
}

std::string sigma_sweep_csv(const SigmaSweep& sw) {
  std::string out =
      "sigma,r,L,epsilon,alpha,auc,auc_sd,tpr_0.1,tpr_0.1_sd,excess_0.1,excess_0.1_sd,tpr_0.01,"
      "tpr_0.01_sd,excess_0.01,excess_0.01_sd,tpr_0.001,tpr_0.001_sd,excess_0.001,excess_0.001_sd,"
      "emp_epsilon,emp_epsilon_sd,emp_epsilon_lower95,emp_epsilon_lower95_sd\n";
  for (std::size_t k = 0; k < kSigmas.size(); ++k) {
    for (std::size_t i = 0; i < sw.rs.size(); ++i) {
      const auto sum = ga::summarise(ga::across_seeds(sw.results, i, k));
      const auto& b = sw.bounds[i][k];
      out += fmt::format("{},{:g},1,{:.6g},{:.6g},{:.5f},{:.5f}", sigma_csv(kSigmas[k]), sw.rs[i],
                         b.epsilon, b.alpha, sum.auc.mean, sum.auc.sd);
      for (std::size_t l = 0; l < 3; ++l) {
        out += fmt::format(",{:.5f},{:.5f},{:.5f},{:.5f}", sum.tpr[l].mean, sum.tpr[l].sd,
                           sum.excess_tpr[l].mean, sum.excess_tpr[l].sd);
      }
      out += fmt::format(",{:.4f},{:.4f},{:.4f},{:.4f}\n", sum.epsilon_estimate.mean,
                         sum.epsilon_estimate.sd, sum.epsilon_lower.mean, sum.epsilon_lower.sd);
    }
  }
  return out;
}

// Excess TPR at FPR level `level` against the bound ε, one line + ±sd band per σ.
void attack_vs_epsilon_panel(plot::Axes& ax, const SigmaSweep& sw, std::size_t level) {
  ax.title(fmt::format("Excess TPR @ FPR = {:g} vs ε (L = 1, n = 10)", ga::kFprLevels[level]))
      .xlabel("ε (δ = 0.05, Lemma B.7)")
      .ylabel(fmt::format("TPR − {:g}", ga::kFprLevels[level]))
      .xlog();
  for (std::size_t k = 0; k < kSigmas.size(); ++k) {
    std::vector<double> eps, mean, lo, hi;
    for (std::size_t i = 0; i < sw.rs.size(); ++i) {
      const auto sum = ga::summarise(ga::across_seeds(sw.results, i, k));
      eps.push_back(sw.bounds[i][k].epsilon);
      mean.push_back(sum.excess_tpr[level].mean);
      lo.push_back(sum.excess_tpr[level].mean - sum.excess_tpr[level].sd);
      hi.push_back(sum.excess_tpr[level].mean + sum.excess_tpr[level].sd);
    }
    const auto color = plot::cycle_color(static_cast<int>(k));
    ax.band(eps, lo, hi, {.color = color});
    ax.line(eps, mean, {.label = sigma_label(kSigmas[k]), .color = color});
    ax.scatter(eps, mean, {.color = color, .size = 2.5});
  }
  ax.hline(0.0);
  ax.vline(10.0);
  ax.legend(plot::LegendPosition::upper_left);
}

// ε vs r (fine grid) per σ with the ε = 10 guide.
void epsilon_vs_r_panel(plot::Axes& ax, const Options& o, std::string& notes) {
  ax.title("(ε, δ)-DP bound vs r (L = 1, n = 10, δ = 0.05)").xlabel("r").ylabel("ε").xlog().ylog();
  const ga::ShadowSetting shadow;
  for (std::size_t k = 0; k < kSigmas.size(); ++k) {
    std::vector<double> rs, eps;
    for (int i = 0; i <= 80; ++i) {
      const double r = std::pow(10.0, -1.3 + 2.3 * i / 80.0);
      rs.push_back(r);
      eps.push_back(
          ga::attack_guarantee(shadow, r, kSigmas[k], 1, kDelta, conversion_of(o)).epsilon);
    }
    ax.line(rs, eps,
            {.label = sigma_label(kSigmas[k]), .color = plot::cycle_color(static_cast<int>(k))});
    // The r where ε crosses 10 (ε decreases in r): bisection on log r.
    double a = -1.3, b = 1.0;
    auto eps_at = [&](double lr) {
      return ga::attack_guarantee(shadow, std::pow(10.0, lr), kSigmas[k], 1, kDelta,
                                  conversion_of(o))
          .epsilon;
    };
    if (eps_at(a) > 10.0 && eps_at(b) < 10.0) {
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (a + b);
        (eps_at(mid) > 10.0 ? a : b) = mid;
      }
      const double r10 = std::pow(10.0, 0.5 * (a + b));
      ax.vline(r10,
               {.color = plot::cycle_color(static_cast<int>(k)), .dashed = true, .width = 1.0});
      notes += fmt::format("- {}: ε = 10 is reached at r = {:.4g}\n", sigma_label(kSigmas[k]), r10);
    }
  }
  ax.hline(10.0);
  ax.legend(plot::LegendPosition::upper_right);
}

// ROC panels (linear and log-log) for σ = 1 at three r, with the (ε, δ) region of each.
void sigma_sweep_rocs(const SigmaSweep& sw, const Options& o, const std::string& name) {
  const std::size_t k = 1;  // σ = 1
  std::vector<std::size_t> picks;
  for (double want : {0.1, 1.0, 10.0}) {
    for (std::size_t i = 0; i < sw.rs.size(); ++i) {
      if (std::abs(sw.rs[i] - want) < 1e-12) picks.push_back(i);
    }
  }
  plot::Figure fig(1500, 900, 2, static_cast<int>(picks.size()));
  for (std::size_t c = 0; c < picks.size(); ++c) {
    const auto i = picks[c];
    const auto seeds = ga::across_seeds(sw.results, i, k);
    const double eps = sw.bounds[i][k].epsilon;
    const auto title = fmt::format("σ = 1, r = {:g}, ε = {:.3g}", sw.rs[i], eps);
    ga::draw_roc(fig.panel(0, static_cast<int>(c)).title(title), seeds, eps, kDelta, false, "LiRA");
    ga::draw_roc(fig.panel(1, static_cast<int>(c)).title(title + " (log-log)"), seeds, eps, kDelta,
                 true, "LiRA");
  }
  fig.suptitle("ROC of the attack (every seed) and the curve the (ε, δ = 0.05) guarantee allows");
  fig.save(path_in(o, name));
}

std::string run_sigma_figure(const Options& o, const std::string& target, std::size_t level,
                             tasks::Executor& executor) {
  const Scale s = scale_of(o);
  const auto sw = run_sigma_sweep(s, o, target, executor);
  io::write_file_atomic(path_in(o, target + ".csv"), sigma_sweep_csv(sw));
  std::string notes;
  plot::Figure left(800, 600);
  attack_vs_epsilon_panel(left.panel(), sw, level);
  left.save(path_in(o, target + "_left.png"));
  plot::Figure right(800, 600);
  epsilon_vs_r_panel(right.panel(), o, notes);
  right.save(path_in(o, target + "_right.png"));
  plot::Figure both(1600, 600, 1, 2);
  attack_vs_epsilon_panel(both.panel(0, 0), sw, level);
  std::string same_notes;
  epsilon_vs_r_panel(both.panel(0, 1), o, same_notes);
  both.save(path_in(o, target + ".png"));
  sigma_sweep_rocs(sw, o, target + "_roc.png");
  std::string md = fmt::format("# {}\n\n{}\n\n", target, run_header(target, s, o));
  md += fmt::format("Excess TPR @ FPR = {:g} (mean ± sd over seeds) next to the bound ε:\n\n",
                    ga::kFprLevels[level]);
  md +=
      "| σ | r | ε (bound) | AUC | excess TPR | empirical ε (95 % lower) "
      "|\n|---|---|---|---|---|---|\n";
  for (std::size_t k = 0; k < kSigmas.size(); ++k) {
    for (std::size_t i = 0; i < sw.rs.size(); ++i) {
      const auto sum = ga::summarise(ga::across_seeds(sw.results, i, k));
      md += fmt::format(
          "| {} | {:g} | {:.4g} | {:.3f} ± {:.3f} | {:+.3f} ± {:.3f} | {:.2f} ({:.2f}) |\n",
          sigma_csv(kSigmas[k]), sw.rs[i], sw.bounds[i][k].epsilon, sum.auc.mean, sum.auc.sd,
          sum.excess_tpr[level].mean, sum.excess_tpr[level].sd, sum.epsilon_estimate.mean,
          sum.epsilon_lower.mean);
    }
  }
  md += "\n" + notes;
  io::write_file_atomic(path_in(o, target + ".md"), md);
  return fmt::format("{}: wrote {}.csv, {}.md, {}.png (+ _left, _right, _roc) in {}\n", target,
                     target, target, target, o.out_dir);
}

// ---- Figure 3 / Figure 5 (right): attack vs L at r = 1, σ = 5 ----------------------------------

std::vector<int> l_grid(bool quick) {
  if (quick) return {1, 3, 10, 30};
  return {1, 2, 3, 5, 10, 20, 30, 50, 100};
}

struct DrawsSweep {
  std::vector<int> Ls;
  ga::SweepResults results;  // [0][seed][L..., exact]
  std::vector<privacy::Guarantee> bounds;
};

DrawsSweep run_draws_sweep(const Scale& s, const Options& o, const std::string& label,
                           tasks::Executor& executor) {
  DrawsSweep d;
  d.Ls = l_grid(s.quick);
  const ga::ShadowSetting shadow;
  ga::SweepPoint p{1.0, {}};
  for (int L : d.Ls) {
    p.releases.push_back({5.0, L});
    d.bounds.push_back(ga::attack_guarantee(shadow, 1.0, 5.0, L, kDelta, conversion_of(o)));
  }
  p.releases.push_back({5.0, 0});  // the non-private benchmark
  d.results = ga::run_sweep({p}, sweep_options(s, o, label), executor);
  return d;
}

void attack_vs_draws_panel(plot::Axes& ax, const DrawsSweep& d, std::size_t level) {
  ax.title(
        fmt::format("Excess TPR @ FPR = {:g} vs L (r = 1, σ = 5, n = 10)", ga::kFprLevels[level]))
      .xlabel("number of released paths L")
      .ylabel(fmt::format("TPR − {:g}", ga::kFprLevels[level]))
      .xlog();
  std::vector<double> Ls, mean, lo, hi;
  for (std::size_t j = 0; j < d.Ls.size(); ++j) {
    const auto sum = ga::summarise(ga::across_seeds(d.results, 0, j));
    Ls.push_back(d.Ls[j]);
    mean.push_back(sum.excess_tpr[level].mean);
    lo.push_back(sum.excess_tpr[level].mean - sum.excess_tpr[level].sd);
    hi.push_back(sum.excess_tpr[level].mean + sum.excess_tpr[level].sd);
  }
  ax.band(Ls, lo, hi, {.color = plot::colors::blue});
  ax.line(Ls, mean, {.label = "LiRA on L paths", .color = plot::colors::blue});
  ax.scatter(Ls, mean, {.color = plot::colors::blue, .size = 2.5});
  const auto exact = ga::summarise(ga::across_seeds(d.results, 0, d.Ls.size()));
  const std::vector<double> ends{Ls.front(), Ls.back()};
  ax.band(ends,
          {exact.excess_tpr[level].mean - exact.excess_tpr[level].sd,
           exact.excess_tpr[level].mean - exact.excess_tpr[level].sd},
          {exact.excess_tpr[level].mean + exact.excess_tpr[level].sd,
           exact.excess_tpr[level].mean + exact.excess_tpr[level].sd},
          {.color = plot::colors::red});
  ax.line(ends, {exact.excess_tpr[level].mean, exact.excess_tpr[level].mean},
          {.label = "non-private benchmark (μ_D, k_D exact)",
           .color = plot::colors::red,
           .dashed = true});
  ax.hline(0.0);
  ax.legend(plot::LegendPosition::lower_right);
}

void epsilon_vs_draws_panel(plot::Axes& ax, const DrawsSweep& d) {
  ax.title("(ε, δ)-DP bound vs L (r = 1, σ = 5, δ = 0.05)").xlabel("L").ylabel("ε").xlog().ylog();
  std::vector<double> Ls, eps, linear;
  for (std::size_t j = 0; j < d.Ls.size(); ++j) {
    Ls.push_back(d.Ls[j]);
    eps.push_back(d.bounds[j].epsilon);
    linear.push_back(d.bounds[0].epsilon * d.Ls[j]);
  }
  ax.line(Ls, eps, {.label = "ε(L), optimised conversion", .color = plot::colors::blue});
  ax.scatter(Ls, eps, {.color = plot::colors::blue, .size = 2.5});
  ax.line(Ls, linear, {.label = "L · ε(1) (linear)", .color = plot::colors::gray, .dashed = true});
  ax.legend(plot::LegendPosition::upper_left);
}

std::string run_draws_figure(const Options& o, const std::string& target, std::size_t level,
                             tasks::Executor& executor) {
  const Scale s = scale_of(o);
  const auto d = run_draws_sweep(s, o, target, executor);
  std::string csv =
      "L,epsilon,alpha,auc,auc_sd,tpr_0.1,tpr_0.1_sd,excess_0.1,excess_0.1_sd,tpr_0.01,tpr_0.01_sd,"
      "excess_0.01,excess_0.01_sd,tpr_0.001,tpr_0.001_sd,excess_0.001,excess_0.001_sd,emp_epsilon,"
      "emp_epsilon_lower95\n";
  std::string md = fmt::format(
      "# {}\n\n{}\n\nr = 1, σ = 5, n = 10. Excess TPR @ FPR = {:g}:\n\n"
      "| L | ε (bound) | AUC | excess TPR | empirical ε (95 % lower) |\n|---|---|---|---|---|\n",
      target, run_header(target, s, o), ga::kFprLevels[level]);
  for (std::size_t j = 0; j <= d.Ls.size(); ++j) {
    const bool exact = j == d.Ls.size();
    const auto sum = ga::summarise(ga::across_seeds(d.results, 0, j));
    const std::string L = exact ? "exact" : fmt::format("{}", d.Ls[j]);
    const std::string eps = exact ? "inf" : fmt::format("{:.6g}", d.bounds[j].epsilon);
    csv += fmt::format("{},{},{},{:.5f},{:.5f}", L, eps,
                       exact ? "" : fmt::format("{:.6g}", d.bounds[j].alpha), sum.auc.mean,
                       sum.auc.sd);
    for (std::size_t l = 0; l < 3; ++l) {
      csv += fmt::format(",{:.5f},{:.5f},{:.5f},{:.5f}", sum.tpr[l].mean, sum.tpr[l].sd,
                         sum.excess_tpr[l].mean, sum.excess_tpr[l].sd);
    }
    csv += fmt::format(",{:.4f},{:.4f}\n", sum.epsilon_estimate.mean, sum.epsilon_lower.mean);
    md += fmt::format("| {} | {} | {:.3f} ± {:.3f} | {:+.3f} ± {:.3f} | {:.2f} ({:.2f}) |\n",
                      exact ? "non-private benchmark" : L,
                      exact ? "—" : fmt::format("{:.4g}", d.bounds[j].epsilon), sum.auc.mean,
                      sum.auc.sd, sum.excess_tpr[level].mean, sum.excess_tpr[level].sd,
                      sum.epsilon_estimate.mean, sum.epsilon_lower.mean);
  }
  io::write_file_atomic(path_in(o, target + ".csv"), csv);
  plot::Figure left(800, 600);
  attack_vs_draws_panel(left.panel(), d, level);
  left.save(path_in(o, target + "_left.png"));
  plot::Figure right(800, 600);
  epsilon_vs_draws_panel(right.panel(), d);
  right.save(path_in(o, target + "_right.png"));
  plot::Figure both(1600, 600, 1, 2);
  attack_vs_draws_panel(both.panel(0, 0), d, level);
  epsilon_vs_draws_panel(both.panel(0, 1), d);
  both.save(path_in(o, target + ".png"));
  // ROC of L = 1, the largest L, and the benchmark.
  plot::Figure roc(1500, 900, 2, 3);
  const std::vector<std::size_t> picks{0, d.Ls.size() - 1, d.Ls.size()};
  for (std::size_t c = 0; c < picks.size(); ++c) {
    const auto j = picks[c];
    const bool exact = j == d.Ls.size();
    const double eps = exact ? INFINITY : d.bounds[j].epsilon;
    const auto title = exact ? std::string("non-private benchmark")
                             : fmt::format("L = {}, ε = {:.3g}", d.Ls[j], eps);
    const auto seeds = ga::across_seeds(d.results, 0, j);
    ga::draw_roc(roc.panel(0, static_cast<int>(c)).title(title), seeds, eps, kDelta, false, "LiRA");
    ga::draw_roc(roc.panel(1, static_cast<int>(c)).title(title + " (log-log)"), seeds, eps, kDelta,
                 true, "LiRA");
  }
  roc.suptitle("ROC of the attack (every seed) and the curve the (ε, δ = 0.05) guarantee allows");
  roc.save(path_in(o, target + "_roc.png"));
  io::write_file_atomic(path_in(o, target + ".md"), md);
  return fmt::format("{}: wrote {}.csv, {}.md, {}.png (+ _left, _right, _roc) in {}\n", target,
                     target, target, target, o.out_dir);
}

// ---- Figure 5: both sweeps at FPR = 0.01 ------------------------------------------------------

std::string run_fig5(const Options& o, tasks::Executor& executor) {
  return run_sigma_figure(o, "fig5a", 1, executor) + run_draws_figure(o, "fig5b", 1, executor);
}

// ---- Figure 6: shadow histograms with the fitted densities (L = 3, M_ξ = 0) --------------------

struct Column {
  double r, sigma;
};

// One panel: the histograms of a statistic under H_in and H_out (common range) with the densities
// fitted to each.
void draw_shadow_panel(plot::Axes& ax, const std::vector<double>& in,
                       const std::vector<double>& out, const std::function<double(double)>& fit_in,
                       const std::function<double(double)>& fit_out) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* v : {&in, &out}) {
    for (double x : *v) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  }
  ax.histogram(in, 60,
               {.label = "in", .color = plot::colors::blue, .density = true, .lo = lo, .hi = hi});
  ax.histogram(
      out, 60,
      {.label = "out", .color = plot::colors::orange, .density = true, .lo = lo, .hi = hi});
  std::vector<double> xs, din, dout;
  for (int i = 0; i <= 300; ++i) {
    const double x = lo + (hi - lo) * i / 300.0;
    xs.push_back(x);
    din.push_back(fit_in(x));
    dout.push_back(fit_out(x));
  }
  ax.line(xs, din, {.label = "fit in", .color = plot::colors::blue});
  ax.line(xs, dout, {.label = "fit out", .color = plot::colors::orange});
  ax.legend();
}

// The observables of one column as CSV rows.
std::string shadow_csv(const Column& column, double eps, const ga::SeedOutcome& out) {
  std::string csv;
  for (const auto* obs : {&*out.shadow_in, &*out.shadow_out}) {
    const std::string h = obs == &*out.shadow_in ? "in" : "out";
    for (double v : obs->f_hat)
      csv += fmt::format("{:g},{:g},{:.6g},{},f_hat,{:.6g}\n", column.r, column.sigma, eps, h, v);
    for (double v : obs->log_v_hat)
      csv +=
          fmt::format("{:g},{:g},{:.6g},{},log_v_hat,{:.6g}\n", column.r, column.sigma, eps, h, v);
  }
  return csv;
}

std::string run_fig6(const Options& o, tasks::Executor& executor) {
  const Scale s = scale_of(o);
  const std::vector<Column> columns{{0.1, 1.0}, {0.1, 100.0}, {1.0, 5.0}, {10.0, 5.0}};
  const ga::ShadowSetting shadow;
  std::vector<ga::SweepPoint> points;
  for (const auto& c : columns) points.push_back({c.r, {{c.sigma, 3}}});
  ga::SweepOptions so = sweep_options(s, o, "fig6");
  so.seeds = 1;
  so.lira.keep_observables = true;
  const auto results = ga::run_sweep(points, so, executor);
  plot::Figure fig(2000, 900, 2, static_cast<int>(columns.size()));
  std::string csv = "r,sigma,epsilon,hypothesis,statistic,value\n";
  std::string md = fmt::format(
      "# fig6\n\n{}\n\nOne seed, L = 3, M_ξ = 0.\n\n| r | σ | ε (bound) | AUC | TPR @ 0.1 "
      "|\n|---|---|---|---|---|\n",
      run_header("fig6", {s.datasets, 1, s.quick}, o));
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto& out = results[c][0][0];
    const double eps =
        ga::attack_guarantee(shadow, columns[c].r, columns[c].sigma, 3, kDelta, conversion_of(o))
            .epsilon;
    md += fmt::format("| {:g} | {:g} | {:.4g} | {:.3f} | {:.3f} |\n", columns[c].r,
                      columns[c].sigma, eps, out.metrics.auc, out.metrics.tpr[0]);
    csv += shadow_csv(columns[c], eps, out);
    // Top: f̂ with the latent tanh-mixture densities; bottom: log v̂ with the Gaussian mixtures.
    const ga::LatentDensity rin(out.model.f_in), rout(out.model.f_out);
    auto& top = fig.panel(0, static_cast<int>(c));
    top.title(fmt::format("r = {:g}, σ = {:g}, ε ≈ {:.3g}", columns[c].r, columns[c].sigma, eps))
        .xlabel("f̂_D(x₀)")
        .ylabel("density");
    draw_shadow_panel(
        top, out.shadow_in->f_hat, out.shadow_out->f_hat, [&](double x) { return rin.density(x); },
        [&](double x) { return rout.density(x); });
    auto& bottom = fig.panel(1, static_cast<int>(c));
    bottom.xlabel("log v̂_D(x₀)").ylabel("density");
    draw_shadow_panel(
        bottom, out.shadow_in->log_v_hat, out.shadow_out->log_v_hat,
        [&](double x) { return std::exp(out.model.v_in->log_density(x)); },
        [&](double x) { return std::exp(out.model.v_out->log_density(x)); });
  }
  fig.suptitle(
      "Shadow distributions at x₀ = 1/2 (L = 3, n = 10, δ = 0.05) with the fitted densities");
  fig.save(path_in(o, "fig6.png"));
  io::write_file_atomic(path_in(o, "fig6.csv"), csv);
  io::write_file_atomic(path_in(o, "fig6.md"), md);
  return fmt::format("fig6: wrote fig6.csv, fig6.md, fig6.png in {}\n", o.out_dir);
}

}  // namespace

std::vector<Target> attack_targets() {
  return {
      {"fig2", "Membership inference vs ε for several σ, and ε vs r (L = 1; paper Fig. 2)"},
      {"fig3",
       "Membership inference vs number of released paths L, with the non-private benchmark "
       "(paper Fig. 3)"},
      {"fig5", "Figures 2 and 3 at FPR = 0.01 (paper Fig. 5)"},
      {"fig6", "Shadow histograms of f̂ and log v̂ with the fitted densities, L = 3 (paper Fig. 6)"}};
}

void run_attack_figure(const std::string& target, const Options& options,
                       tasks::Executor& executor) {
  require(!options.out_dir.empty(), "reproduce: the output folder is required");
  conversion_of(options);  // refuses an unknown conversion before anything is written
  std::filesystem::create_directories(options.out_dir);
  std::string done;
  if (target == "fig2") {
    done = run_sigma_figure(options, "fig2", 0, executor);
  } else if (target == "fig3") {
    done = run_draws_figure(options, "fig3", 0, executor);
  } else if (target == "fig5") {
    done = run_fig5(options, executor);
  } else if (target == "fig6") {
    done = run_fig6(options, executor);
  } else {
    throw InputError(
        fmt::format("reproduce: '{}' is not an attack figure (fig2, fig3, fig5, fig6)", target));
  }
  fmt::print("{}", done);
}

}  // namespace gpdp::reproduce
