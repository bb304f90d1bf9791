// Grid sampling benchmarks (docs/mathematics.md §3, issue target: 1024x1024 grid, n = 10⁴ data, one
// exact draw in under 15 s and 6 GB on a 2-core machine).
//   prior_draw/<kernel>/<n>   one exact prior draw on an n x n grid of [0,1]² by circulant
//   embedding
//                             (embedding built once, outside the timing; its kind is printed)
//   embedding_search/...      finding a nonnegative definite embedding (failed candidates included)
//   pathwise/1024/n=10000     the whole job: Posterior (O(n³) Cholesky of K + r²I), the embedding
//                             search and one pathwise posterior draw; peak RSS from getrusage
//   dense/40x40/n=400         the dense exact sampler on a small grid, the baseline: its time is
//                             scaled by (m_big / m_small)³ — the cubic cost of factorising the
//                             m x m posterior covariance — to estimate dense on 1024x1024
// Ratios are printed at the end, from times measured in this run.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdio>
#include <map>
#include <string>

#include "gpdp/grid.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/samplers/circulant.hpp"
#include "gpdp/samplers/dense.hpp"
#include "gpdp/samplers/pathwise.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace {

using namespace gpdp;

double peak_rss_gb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0 / 1e9;  // ru_maxrss is in KiB on Linux
}

Lattice unit_square(long n) {
  const double h = 1.0 / static_cast<double>(n - 1);
  return Lattice{{n, n}, {h, h}};
}

// n covariates at random nodes of the grid (duplicates allowed), bounded responses.
Posterior grid_posterior(const Kernel& kernel, const Grid& grid, long n, std::uint64_t seed) {
  SeededRng rng(seed);
  const Points nodes = grid.points();
  Points x(n, 2);
  Eigen::VectorXd y(n);
  for (long i = 0; i < n; ++i) {
    const auto j =
        static_cast<Eigen::Index>(rng.next_u64() % static_cast<std::uint64_t>(grid.size()));
    x.row(i) = nodes.row(j);
    y[i] = std::clamp(
        std::sin(6.0 * x(i, 0)) * std::cos(4.0 * x(i, 1)) + 0.2 * rng.standard_normal(), -1.0, 1.0);
  }
  return Posterior(kernel, x, y, {0.5, 1.0});
}

void prior_draw(benchmark::State& state, double ell) {
  const Kernel kernel = Kernel::exponential(ell);
  auto emb = CirculantEmbedding::find(kernel, unit_square(state.range(0)));
  if (!emb) {
    state.SkipWithError("no exact embedding");
    return;
  }
  std::vector<double> out(static_cast<std::size_t>(emb->lattice().size()));
  SeededRng rng(1);
  for (auto _ : state) {
    emb->draw(rng, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(emb->attempt().describe());
}

void embedding_search(benchmark::State& state, double ell) {
  const Kernel kernel = Kernel::exponential(ell);
  for (auto _ : state) {
    auto emb = CirculantEmbedding::find(kernel, unit_square(state.range(0)));
    benchmark::DoNotOptimize(emb);
    if (emb) state.SetLabel(to_string(emb->attempt().choice.kind));
  }
}

void pathwise_job(benchmark::State& state, double ell) {
  const Grid grid = Grid::parse("0:1:1024,0:1:1024");
  const long n = state.range(0);
  for (auto _ : state) {
    const Posterior post = grid_posterior(Kernel::exponential(ell), grid, n, 7);
    const std::string reason = pathwise_unavailable_reason(post, grid, 0.0);
    if (!reason.empty()) {
      state.SkipWithError(reason.c_str());
      return;
    }
    SeededRng rng(8);
    const Draws d = sample_pathwise(post, grid, 1, rng, 0.0);
    benchmark::DoNotOptimize(d.values.data());
    state.SetLabel(d.detail.substr(0, d.detail.find(';')));
  }
  state.counters["peak_rss_GB"] = peak_rss_gb();
}

void dense_small(benchmark::State& state, double ell) {
  const Grid grid = Grid::parse("0:1:40,0:1:40");
  const Posterior post = grid_posterior(Kernel::exponential(ell), grid, 400, 9);
  post.factor();
  const Points pts = grid.points();
  SeededRng rng(10);
  for (auto _ : state) {
    const Draws d = sample_dense(post, pts, 1, rng, 0.0);
    benchmark::DoNotOptimize(d.values.data());
  }
}

// Every candidate embedding of the 2-D exponential kernel (ℓ = 1) on a 129 x 129 lattice of the
// unit square: the trap (minimal and moderate padding are not nonnegative definite) and the
// cut-off.
void print_embedding_table() {
  const Kernel kernel = Kernel::exponential(1.0);
  const Lattice lattice = unit_square(129);
  EmbeddingOptions options;
  options.paddings = {2.0, 4.0, 6.0, 7.0};
  std::printf("embedding candidates, exponential ℓ = 1, 129x129 lattice of [0,1]²:\n");
  for (const auto& choice : CirculantEmbedding::candidates(kernel, lattice, options)) {
    std::printf("  %s\n",
                CirculantEmbedding::build(kernel, lattice, choice).attempt().describe().c_str());
  }
}

// Captures each benchmark's mean real time (seconds) for the ratio table.
class Capture : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> seconds;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      if (!r.error_occurred) seconds[r.benchmark_name()] = r.GetAdjustedRealTime() * 1e-3;  // ms
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  using benchmark::kMillisecond;
  // The 1024x1024 job first, so that its peak RSS is not inflated by the other cases.
  for (const double ell : {0.1, 1.0}) {
    const std::string tag = ell == 0.1 ? "exp0.1" : "exp1";
    benchmark::RegisterBenchmark(("pathwise/" + tag + "/1024").c_str(), pathwise_job, ell)
        ->Arg(10000)
        ->Iterations(1)
        ->Unit(kMillisecond)
        ->UseRealTime();
  }
  for (const double ell : {0.1, 1.0}) {
    const std::string tag = ell == 0.1 ? "exp0.1" : "exp1";
    benchmark::RegisterBenchmark(("prior_draw/" + tag).c_str(), prior_draw, ell)
        ->Arg(256)
        ->Arg(512)
        ->Arg(1024)
        ->Unit(kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("embedding_search/" + tag).c_str(), embedding_search, ell)
        ->Arg(1024)
        ->Iterations(1)
        ->Unit(kMillisecond)
        ->UseRealTime();
  }
  benchmark::RegisterBenchmark("dense/exp0.1/40x40", dense_small, 0.1)
      ->Iterations(3)
      ->Unit(kMillisecond)
      ->UseRealTime();

  benchmark::Initialize(&argc, argv);
  print_embedding_table();
  Capture capture;
  benchmark::RunSpecifiedBenchmarks(&capture);

  const auto& s = capture.seconds;
  auto get = [&](const std::string& k) { return s.count(k) ? s.at(k) : 0.0; };
  std::printf("\nratios (times from this run):\n");
  for (const std::string tag : {"exp0.1", "exp1"}) {
    auto draw = [&](int n) {
      return get("prior_draw/" + tag + "/" + std::to_string(n) + "/real_time");
    };
    const double t256 = draw(256);
    if (t256 > 0) {
      std::printf(
          "  prior draw %s: 512² / 256² = %.2f, 1024² / 256² = %.2f  (m log m predicts ~4.3, "
          "~18)\n",
          tag.c_str(), draw(512) / t256, draw(1024) / t256);
    }
  }
  const double dense = get("dense/exp0.1/40x40/iterations:3/real_time");
  const double scale = std::pow(1024.0 * 1024.0 / 1600.0, 3.0);
  for (const std::string tag : {"exp0.1", "exp1"}) {
    const double pw = get("pathwise/" + tag + "/1024/10000/iterations:1/real_time");
    if (pw > 0 && dense > 0) {
      std::printf(
          "  pathwise %s 1024² n=10⁴: %.2f s; dense on 40x40 %.3f s x (1024²/1600)³ = %.3g s "
          "(cubic-cost extrapolation): dense / pathwise = %.3g\n",
          tag.c_str(), pw, dense, dense * scale, dense * scale / pw);
    }
  }
  std::printf("  peak RSS of the process at the end: %.2f GB\n", peak_rss_gb());
  benchmark::Shutdown();
  return 0;
}
