// 2-D draws of scattered (off-lattice) data on a grid, before and after issue #30, in one run
// (docs/grid-sampling.md, "Off-lattice covariates"):
//   before  the dense sampler (what Auto used whenever a covariate was off the grid's lattice);
//   after   Auto: pathwise with the covariates conditioned on the torus draw (TorusSites);
//   snapped Auto after `gpdp release --snap-covariates 0.05` (release/covariate_snap.hpp): the
//           covariates moved to the nearest node of the grid's lattice refined by the smallest q
//           within 0.05·ℓ, then pathwise on lattice nodes (the exact posterior of the SNAPPED
//           records). For the 470-point case the cost in accuracy is printed: the largest
//           |difference| of the posterior mean on the grid, snapped vs as parsed, also in units of
//           the posterior standard deviation there.
// Each case runs in its own child process (fork), so its wall time and peak RSS (wait4) are its
// own: the whole job — Posterior, the n x n factorisation, the set-up and one exact draw. A case
// whose memory estimate exceeds what is available is refused by the library before it allocates;
// the table then shows the estimate and a projected time (its operation count at the rate measured
// for the same method in this run).
//
//   build/bench_off_lattice            all cases (the dense 470-point case takes minutes)
//   build/bench_off_lattice --quick    without the dense 470 x 19,781 case
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/covariate_snap.hpp"
#include "gpdp/samplers/pathwise.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "gpdp/samplers/torus_sites.hpp"

namespace {

using namespace gpdp;

struct Case {
  const char* name;
  long n;
  long grid1, grid2;
  double ell;
  SamplerMethod method;
  double snap = 0.0;  // > 0: --snap-covariates F
};

// n survey samples at integer coordinates (metres) of a 1003 x 1207 m area, responses in [−1, 1];
// the grid spans the area, so its steps (7.7 m, 8.05 m) are not commensurate with the metre.
Posterior survey(long n, double ell, const Points& snapped = Points()) {
  SeededRng rng(11);
  Points x(n, 2);
  Eigen::VectorXd y(n);
  for (long i = 0; i < n; ++i) {
    x(i, 0) = std::floor(1004.0 * rng.uniform01());
    x(i, 1) = std::floor(1208.0 * rng.uniform01());
    y[i] = std::clamp(
        std::sin(x(i, 0) / 150.0) * std::cos(x(i, 1) / 200.0) + 0.2 * rng.standard_normal(), -1.0,
        1.0);
  }
  return Posterior(Kernel::exponential(ell), snapped.size() ? snapped : x, y, {0.5, 1.0});
}

Grid survey_grid(long g1, long g2) {
  return Grid({GridAxis{0.0, 1003.0, g1}, GridAxis{0.0, 1207.0, g2}});
}

// The survey's covariates snapped as `gpdp release --snap-covariates F` does (domain = the area).
release::SnappedCovariates snapped_survey(const Case& c, release::CovariateSnapPlan* plan_out) {
  const Grid grid = survey_grid(c.grid1, c.grid2);
  const auto plan = release::plan_covariate_snap(c.snap, c.ell, grid, Box::parse("0:1003,0:1207"),
                                                 PathwiseOptions{}.max_refinement, {});
  if (plan_out) *plan_out = plan;
  return release::snap_covariates(plan, survey(c.n, c.ell).X());
}

struct Result {
  double wall_s = 0.0;
  double peak_gb = 0.0;
  bool refused = false;
  char detail[900] = {};
};

// Runs one case in a child; the child writes its result through a pipe.
Result run_case(const Case& c) {
  int fd[2];
  if (pipe(fd) != 0) std::abort();
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    Result r;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      std::string snapped;
      Points x;
      if (c.snap > 0) {
        release::CovariateSnapPlan plan;
        const release::SnappedCovariates s = snapped_survey(c, &plan);
        x = s.X;
        snapped = release::describe(plan) +
                  fmt::format(" [measured: max {:.3g} m = {:.3g} l, mean {:.3g} m]; ",
                              s.max_displacement, s.max_displacement / c.ell, s.mean_displacement);
      }
      const Posterior post = survey(c.n, c.ell, x);
      SeededRng rng(12);
      const Draws d = sample(post, survey_grid(c.grid1, c.grid2), 1, rng, {c.method, 0.0});
      std::snprintf(r.detail, sizeof r.detail, "%s%s: %s", snapped.c_str(), d.method.c_str(),
                    d.detail.c_str());
    } catch (const ResourceError& e) {
      r.refused = true;
      std::snprintf(r.detail, sizeof r.detail, "refused: %s", e.what());
    }
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (write(fd[1], &r, sizeof r) != static_cast<ssize_t>(sizeof r)) _exit(2);
    _exit(0);
  }
  close(fd[1]);
  Result r;
  if (read(fd[0], &r, sizeof r) != static_cast<ssize_t>(sizeof r)) r.refused = true;
  close(fd[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  r.peak_gb = static_cast<double>(usage.ru_maxrss) * 1024.0 / 1e9;  // KiB on Linux
  return r;
}

// The dense draw's and the off-lattice set-up's operation counts (as the dispatcher estimates).
double dense_flops(long n, long m) {
  const auto nd = static_cast<double>(n), md = static_cast<double>(m);
  return md * md * md / 3.0 + nd * md * md + nd * nd * md;
}

PathwisePlan plan_of(const Case& c) {
  return plan_pathwise(survey(c.n, c.ell), survey_grid(c.grid1, c.grid2), 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const std::vector<Case> cases = {
      {"470 pts, 131x151, exp l=150 m", 470, 131, 151, 150.0, SamplerMethod::Dense},
      {"470 pts, 131x151, exp l=150 m", 470, 131, 151, 150.0, SamplerMethod::Auto},
      {"470 pts, 131x151, exp l=1000 m", 470, 131, 151, 1000.0, SamplerMethod::Auto},
      {"500 pts, 512x512, exp l=150 m", 500, 512, 512, 150.0, SamplerMethod::Auto},
      {"5000 pts, 512x512, exp l=150 m", 5000, 512, 512, 150.0, SamplerMethod::Dense},
      {"5000 pts, 512x512, exp l=150 m", 5000, 512, 512, 150.0, SamplerMethod::Auto},
      {"470 pts, 131x151, exp l=1000 m", 470, 131, 151, 1000.0, SamplerMethod::Auto, 0.05},
      {"500 pts, 512x512, exp l=150 m", 500, 512, 512, 150.0, SamplerMethod::Auto, 0.05},
      {"470 pts, 131x151, exp l=150 m", 470, 131, 151, 150.0, SamplerMethod::Auto, 0.05},
      {"5000 pts, 512x512, exp l=150 m", 5000, 512, 512, 150.0, SamplerMethod::Auto, 0.05},
  };
  std::printf("available memory %s; each case in its own process\n\n",
              format_bytes(static_cast<double>(available_memory())).c_str());
  std::printf("%-32s %-7s %10s %10s  %s\n", "case", "sampler", "wall s", "peak GB", "what ran");
  double dense_rate = 0.0, off_rate = 0.0;  // measured flop/s, for projections
  for (const Case& c : cases) {
    const bool before = c.method == SamplerMethod::Dense;
    const char* label = before ? "dense" : c.snap > 0 ? "snapped" : "auto";
    const long m = c.grid1 * c.grid2;
    if (quick && before && !(dense_bytes(m, m, 2) > available_memory())) {
      std::printf("%-32s %-7s %10s %10s  skipped (--quick)\n", c.name, "dense", "-", "-");
      continue;
    }
    const Result r = run_case(c);
    const PathwisePlan plan = before ? PathwisePlan{} : plan_of(c);
    const double flops = before ? dense_flops(c.n, m) : plan.setup_flops;
    if (!r.refused) {
      (before ? dense_rate : off_rate) = flops / r.wall_s;
      std::printf("%-32s %-7s %10.2f %10.2f  %.600s\n", c.name, label, r.wall_s, r.peak_gb,
                  r.detail);
    } else {
      const double rate = before ? dense_rate : off_rate;
      const double bytes = before ? static_cast<double>(dense_bytes(m, m, 2))
                                  : TorusSites::bytes_needed(plan.torus_points, c.n);
      std::printf("%-32s %-7s %10s %10s  %.400s; %s needs %s and %.3g GFLOP%s\n", c.name, label,
                  "-", "-", r.detail, before ? "dense" : "the off-lattice set-up",
                  format_bytes(bytes).c_str(), flops / 1e9,
                  rate > 0.0 ? (", ~" + std::to_string(static_cast<long>(flops / rate)) +
                                " s at this run's rate")
                                   .c_str()
                             : "");
    }
    std::fflush(stdout);
  }
  // What snapping costs in accuracy (470 points, 131 x 151, l = 150 m, F = 0.05): the posterior
  // mean on the grid of the snapped records against the records as parsed.
  const Case& c = cases[cases.size() - 2];
  const Points grid = survey_grid(c.grid1, c.grid2).points();
  const Posterior parsed = survey(c.n, c.ell);
  const Posterior snapped = survey(c.n, c.ell, snapped_survey(c, nullptr).X);
  const Eigen::ArrayXd diff = (snapped.mean(grid) - parsed.mean(grid)).array().abs();
  const Eigen::ArrayXd sd = parsed.variance(grid).array().sqrt();
  std::printf(
      "\naccuracy, %s, snap 0.05: posterior mean snapped vs as parsed on the %ld grid points: "
      "max |diff| %.3g (responses in [-1, 1]), RMS %.3g, max |diff|/posterior sd %.3g\n",
      c.name, static_cast<long>(grid.rows()), diff.maxCoeff(), std::sqrt(diff.square().mean()),
      (diff / sd).maxCoeff());
  return 0;
}
