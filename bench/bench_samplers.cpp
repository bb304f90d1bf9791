// Exact samplers: dense vs Markov (vs pathwise when it can draw exactly) for growing n and m, the
// issue's targets, and the dense Cholesky FLOP rate against the machine's dgemm measured in the
// same run. Run: build/bench_samplers (or `make bench`); the ratio table is printed at the end.
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <map>
#include <string>

#include "gpdp/posterior.hpp"
#include "gpdp/samplers/dense.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace {

using gpdp::Points;

gpdp::Posterior make_posterior(const gpdp::Kernel& kernel, long n, int dim, std::uint64_t seed) {
  gpdp::SeededRng rng(seed);
  Points x(n, dim);
  Eigen::VectorXd y(n);
  for (long i = 0; i < n; ++i) {
    for (int j = 0; j < dim; ++j) x(i, j) = rng.uniform01();
    y[i] = std::sin(6.0 * x(i, 0)) + 0.3 * rng.standard_normal();
  }
  return gpdp::Posterior(kernel, x, y, {0.5, 1.0});
}

Points grid1d(long m) { return gpdp::Grid::parse(fmt::format("0:1:{}", m)).points(); }

// Dense and Markov on the same 1-D exponential posterior (n = 200), m query points, one draw.
void BM_Sample1D(benchmark::State& state, gpdp::SamplerMethod method) {
  const gpdp::Posterior post = make_posterior(gpdp::Kernel::exponential(0.2), state.range(0), 1, 1);
  const Points xs = grid1d(state.range(1));
  gpdp::SeededRng rng(2);
  if (method == gpdp::SamplerMethod::Dense) post.factor();  // n³ set-up outside the loop
  for (auto _ : state) {
    auto d = gpdp::sample(post, xs, 1, rng, {method, 0.0});
    benchmark::DoNotOptimize(d.values.data());
  }
}
BENCHMARK_CAPTURE(BM_Sample1D, dense, gpdp::SamplerMethod::Dense)
    ->ArgsProduct({{200}, {250, 500, 1000, 2000}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Sample1D, markov, gpdp::SamplerMethod::Markov)
    ->ArgsProduct({{200}, {250, 500, 1000, 2000, 100000, 1000000}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Sample1D, markov_n1e4, gpdp::SamplerMethod::Markov)
    ->ArgsProduct({{10000, 100000}, {1000, 1000000}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Dense vs pathwise on a 2-D grid (exponential kernel, n = 400 covariates on grid nodes, as the
// pathwise sampler needs); pathwise is skipped while pathwise_unavailable_reason says it cannot
// draw exactly.
void BM_Sample2D(benchmark::State& state, gpdp::SamplerMethod method) {
  const auto side = state.range(0);
  gpdp::Posterior raw = make_posterior(gpdp::Kernel::exponential(0.3), 400, 2, 3);
  Points on_grid = raw.X();
  const double step = 1.0 / static_cast<double>(side - 1);
  for (long i = 0; i < on_grid.size(); ++i) {
    on_grid.data()[i] = std::round(on_grid.data()[i] / step) * step;
  }
  const gpdp::Posterior post(raw.kernel(), on_grid, raw.y(), {0.5, 1.0});
  const gpdp::Grid grid = gpdp::Grid::parse(fmt::format("0:1:{},0:1:{}", side, side));
  gpdp::SeededRng rng(4);
  post.factor();
  for (auto _ : state) {
    try {
      auto d = gpdp::sample(post, grid, 1, rng, {method, 0.0});
      benchmark::DoNotOptimize(d.values.data());
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
  }
}
BENCHMARK_CAPTURE(BM_Sample2D, dense, gpdp::SamplerMethod::Dense)
    ->Arg(16)
    ->Arg(32)
    ->Arg(48)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Sample2D, pathwise, gpdp::SamplerMethod::Pathwise)
    ->Arg(16)
    ->Arg(32)
    ->Arg(48)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Issue target: 1-D exponential, n = 10⁵ data, m = 10⁶ points: build the posterior, mean,
// variance and one exact draw (< 2 s on 2 cores).
void BM_Target1D_n1e5_m1e6(benchmark::State& state) {
  gpdp::SeededRng data_rng(5);
  const long n = 100000;
  Points x(n, 1);
  Eigen::VectorXd y(n);
  for (long i = 0; i < n; ++i) {
    x(i, 0) = data_rng.uniform01();
    y[i] = std::sin(6.0 * x(i, 0)) + 0.3 * data_rng.standard_normal();
  }
  const Points xs = grid1d(1000000);
  gpdp::SeededRng rng(6);
  for (auto _ : state) {
    const gpdp::Posterior post(gpdp::Kernel::exponential(0.2), x, y, {0.5, 1.0});
    const Eigen::VectorXd mean = post.mean(xs);
    const Eigen::VectorXd var = post.variance(xs);
    auto d = gpdp::sample(post, xs, 1, rng);
    benchmark::DoNotOptimize(mean.data());
    benchmark::DoNotOptimize(var.data());
    benchmark::DoNotOptimize(d.values.data());
  }
}
BENCHMARK(BM_Target1D_n1e5_m1e6)->Unit(benchmark::kMillisecond)->UseRealTime();

Eigen::MatrixXd spd_matrix(long m) {
  // Exponential-kernel Gram matrix on random 2-D points plus a ridge: SPD, well conditioned.
  gpdp::SeededRng rng(7);
  Points p(m, 2);
  for (long i = 0; i < p.size(); ++i) p.data()[i] = rng.uniform01();
  Eigen::MatrixXd c = gpdp::Kernel::exponential(0.3).gram(p);
  c.diagonal().array() += 0.01;
  return c;
}

// The dense sampler's factorisation (factor_psd: copy + LAPACK dpotrf + checks); GFLOP/s = m³/3.
void BM_DenseCholesky(benchmark::State& state) {
  const long m = state.range(0);
  const Eigen::MatrixXd c = spd_matrix(m);
  for (auto _ : state) {
    auto f = gpdp::factor_psd(c);
    benchmark::DoNotOptimize(f.factor.data());
  }
  state.counters["GFLOPs"] = benchmark::Counter(std::pow(static_cast<double>(m), 3) / 3.0 * 1e-9,
                                                benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_DenseCholesky)->Arg(4000)->Unit(benchmark::kMillisecond)->UseRealTime();

// Eigen's own blocked LLT (the Posterior's factorisation of K + r²I) at the same size.
void BM_EigenLLT(benchmark::State& state) {
  const long m = state.range(0);
  const Eigen::MatrixXd c = spd_matrix(m);
  for (auto _ : state) {
    Eigen::LLT<Eigen::MatrixXd> llt(c);
    benchmark::DoNotOptimize(llt.matrixLLT().data());
  }
  state.counters["GFLOPs"] = benchmark::Counter(std::pow(static_cast<double>(m), 3) / 3.0 * 1e-9,
                                                benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_EigenLLT)->Arg(4000)->Unit(benchmark::kMillisecond)->UseRealTime();

// The machine's dgemm rate (OpenBLAS), the baseline of the ratio: GFLOP/s = 2 m³.
void BM_Dgemm(benchmark::State& state) {
  const long m = state.range(0);
  const Eigen::MatrixXd a = Eigen::MatrixXd::Random(m, m), b = Eigen::MatrixXd::Random(m, m);
  Eigen::MatrixXd c(m, m);
  const auto mi = static_cast<int>(m);
  for (auto _ : state) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, mi, mi, mi, 1.0, a.data(), mi, b.data(),
                mi, 0.0, c.data(), mi);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPs"] = benchmark::Counter(2.0 * std::pow(static_cast<double>(m), 3) * 1e-9,
                                                benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Dgemm)->Arg(4000)->Unit(benchmark::kMillisecond)->UseRealTime();

// Console output plus a ratio table computed from the runs of this process.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& run : runs) {
      if (run.error_occurred || run.run_type != Run::RT_Iteration) continue;
      const std::string name = run.benchmark_name();
      seconds_[name] = run.GetAdjustedRealTime() / 1e3;  // ms -> s
      const auto it = run.counters.find("GFLOPs");
      if (it != run.counters.end()) gflops_[name] = it->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    fmt::print("\nRatios (same run):\n");
    for (const long m : {250, 500, 1000, 2000}) {
      const auto d = seconds_.find(fmt::format("BM_Sample1D/dense/200/{}/real_time", m));
      const auto k = seconds_.find(fmt::format("BM_Sample1D/markov/200/{}/real_time", m));
      if (d != seconds_.end() && k != seconds_.end()) {
        fmt::print(
            "  1-D exp n=200 m={:>5}: dense {:9.3f} ms, markov {:7.3f} ms, dense/markov = "
            "{:.0f}x\n",
            m, 1e3 * d->second, 1e3 * k->second, d->second / k->second);
      }
    }
    for (const long side : {16, 32, 48, 256}) {
      const auto d = seconds_.find(fmt::format("BM_Sample2D/dense/{}/real_time", side));
      const auto p = seconds_.find(fmt::format("BM_Sample2D/pathwise/{}/real_time", side));
      if (p == seconds_.end()) continue;
      if (d != seconds_.end()) {
        fmt::print(
            "  2-D exp n=400 grid {}x{}: dense {:.3f} ms, pathwise {:.3f} ms, dense/pathwise = "
            "{:.2f}x\n",
            side, side, 1e3 * d->second, 1e3 * p->second, d->second / p->second);
      } else {
        fmt::print("  2-D exp n=400 grid {}x{}: pathwise {:.3f} ms\n", side, side, 1e3 * p->second);
      }
    }
    const auto t = seconds_.find("BM_Target1D_n1e5_m1e6/real_time");
    if (t != seconds_.end()) {
      fmt::print(
          "  target 1-D exp n=1e5, m=1e6 (posterior + mean + variance + 1 draw): {:.3f} s "
          "(target < 2 s): {}\n",
          t->second, t->second < 2.0 ? "MET" : "MISSED");
    }
    const auto chol = gflops_.find("BM_DenseCholesky/4000/real_time");
    const auto llt = gflops_.find("BM_EigenLLT/4000/real_time");
    const auto gemm = gflops_.find("BM_Dgemm/4000/real_time");
    if (chol != gflops_.end() && gemm != gflops_.end()) {
      fmt::print(
          "  m=4000: dense Cholesky {:.1f} GFLOP/s, dgemm {:.1f} GFLOP/s, ratio {:.2f} "
          "(target ≥ 0.5): {}\n",
          chol->second, gemm->second, chol->second / gemm->second,
          chol->second / gemm->second >= 0.5 ? "MET" : "MISSED");
    }
    if (llt != gflops_.end() && gemm != gflops_.end()) {
      fmt::print("  m=4000: Eigen LLT {:.1f} GFLOP/s, ratio to dgemm {:.2f}\n", llt->second,
                 llt->second / gemm->second);
    }
  }

 private:
  std::map<std::string, double> seconds_, gflops_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
