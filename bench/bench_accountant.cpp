// Accountant benchmarks (issue 3): one ε(δ) evaluation and one calibration, in microseconds.
//   epsilon/optimised   Accountant::epsilon (scan + Brent over the open α range), exp1d, Lemma B.7
//   epsilon/dense_scan  baseline: the same ε by a 10⁴-point log-spaced α scan (less exact)
//   calibrate/r         smallest r meeting ε₀ = 10 at δ = 0.005 (log-scan + TOMS 748 + check)
//   calibrate/sigma     smallest σ meeting ε₀ = 3
// The summary prints the times in µs, the ratio to the baseline, and the ε a fixed Opacus-style α
// grid (1.1..10.9, 12..63) would report for a low-loss release, next to the optimised ε.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "gpdp/privacy/calibrate.hpp"

namespace {

using namespace gpdp;
using namespace gpdp::privacy;

GpMechanism mechanism(double r, double sigma) {
  GpMechanism m;
  m.kernel = Kernel::exponential(1.0);
  m.n = 100;
  m.r = r;
  m.sigma = sigma;
  m.lemma = SensitivityLemma::B7;
  return m;
}

double dense_scan_epsilon(const Accountant& acc, double delta, int points) {
  double best = std::numeric_limits<double>::infinity();
  const double top = acc.alpha_max();
  for (int i = 1; i < points; ++i) {
    const double alpha = 1.0 + (top - 1.0) * std::pow(1e-9, 1.0 - static_cast<double>(i) / points);
    const double R = acc.rdp(alpha);
    if (std::isfinite(R))
      best = std::min(best, epsilon_at_order(R, alpha, delta, Conversion::Mironov));
  }
  return best;
}

std::vector<double> g_us(4, 0.0);
std::vector<long> g_n(4, 0);

template <class F>
void timed(benchmark::State& state, int slot, F f) {
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(f());
    g_us[slot] +=
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    ++g_n[slot];
  }
}

void BM_epsilon_optimised(benchmark::State& state) {
  Accountant acc;
  acc.add(rdp_curve(mechanism(1.0, 1.0)), 1);
  timed(state, 0, [&] { return acc.epsilon(0.005, Conversion::Mironov).epsilon; });
}
void BM_epsilon_dense_scan(benchmark::State& state) {
  Accountant acc;
  acc.add(rdp_curve(mechanism(1.0, 1.0)), 1);
  timed(state, 1, [&] { return dense_scan_epsilon(acc, 0.005, 10000); });
}
void BM_calibrate_r(benchmark::State& state) {
  timed(state, 2, [&] {
    return calibrate(mechanism(1.0, 1.0), 1, CalibrationParameter::R,
                     {10.0, 0.005, Conversion::Mironov})
        .value;
  });
}
void BM_calibrate_sigma(benchmark::State& state) {
  timed(state, 3, [&] {
    return calibrate(mechanism(2.0, 1.0), 1, CalibrationParameter::Sigma,
                     {3.0, 0.005, Conversion::Mironov})
        .value;
  });
}

BENCHMARK(BM_epsilon_optimised)->Name("epsilon/optimised")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_epsilon_dense_scan)->Name("epsilon/dense_scan")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_calibrate_r)->Name("calibrate/r")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_calibrate_sigma)->Name("calibrate/sigma")->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  auto mean = [](int s) { return g_n[s] ? g_us[s] / static_cast<double>(g_n[s]) : 0.0; };
  std::printf("\nsummary (mean wall time per call, this run)\n");
  std::printf("  one eps(delta), optimised      %10.2f us\n", mean(0));
  std::printf("  one eps(delta), 1e4-point scan %10.2f us  (baseline; optimised is %.1fx faster)\n",
              mean(1), mean(0) > 0 ? mean(1) / mean(0) : 0.0);
  std::printf("  one calibration of r           %10.2f us\n", mean(2));
  std::printf("  one calibration of sigma       %10.2f us\n", mean(3));
  // Fixed α grids inflate ε when each draw spends little privacy (optimum beyond the grid).
  Accountant low;
  low.add(rdp_curve(mechanism(30.0, 10.0)), 1);
  const auto opt = low.epsilon(1e-5, Conversion::Mironov);
  double grid_eps = std::numeric_limits<double>::infinity();
  std::vector<double> grid;
  for (int i = 1; i < 100; ++i) grid.push_back(1.0 + i / 10.0);
  for (int a = 12; a <= 63; ++a) grid.push_back(a);
  for (double alpha : grid) {
    const double R = low.rdp(alpha);
    if (std::isfinite(R))
      grid_eps = std::min(grid_eps, epsilon_at_order(R, alpha, 1e-5, Conversion::Mironov));
  }
  std::printf(
      "  r = 30, sigma = 10, delta = 1e-5: optimised eps = %.6g at alpha* = %.4g; fixed grid "
      "(<= 63) eps = %.6g (%.2fx)\n",
      opt.epsilon, opt.alpha, grid_eps, grid_eps / opt.epsilon);
  return 0;
}
