// Membership-inference attack benchmarks (issue 5: the full Figure 2 sweep — 13 r x 4 σ, L = 1,
// 10 seeds, 10⁴ shadow + 10⁴ evaluation datasets per hypothesis — must run in minutes on 2 cores).
//   fig2_item/r=R          one work item of the Figure 2 sweep as `gpdp reproduce fig2` runs it:
//                          4·10⁴ datasets (posterior at x₀ by gpdp::Posterior), 4 releases (σ),
//                          8 density fits, scoring, ROC, empirical ε. The full sweep is 130 items
//                          on 2 threads: projected time = mean item time x 130 / 2 (MEASURED
//                          FRACTION, SCALED; said so in the summary).
//   release/one_point      the attack's exact one-point release (μ + σ √k_D Z) for 10⁴ datasets
//   release/sample_dense   the same draws through gpdp::sample(..., Dense) on the 1-point set
//   baseline/...           a straightforward dense implementation of the same item: a Posterior
//                          and a gpdp::sample(Dense) draw per dataset and release (measured on
//                          10³ datasets per set, scaled x10), and the latent-mixture likelihood
//                          evaluated on all 10⁴ raw values with Gauss–Hermite over φ recomputed
//                          per point (one evaluation measured, scaled by the 1200 evaluations the
//                          optimiser may use per fit, 8 fits per item).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <vector>

#include "gpdp/attack/gauss_hermite.hpp"
#include "gpdp/attack/lira.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace {

using namespace gpdp;
using namespace gpdp::attack;

const std::vector<ReleaseSetting> kFig2Releases{{0.5, 1}, {1.0, 1}, {5.0, 1}, {INFINITY, 1}};
constexpr long kDatasets = 10000;
constexpr int kFig2Items = 13 * 10;

double g_item_seconds = 0.0, g_item_cpu_seconds = 0.0;
int g_item_count = 0;
double g_one_point_seconds = 0.0, g_sample_seconds = 0.0;
double g_baseline_draw_seconds = 0.0, g_baseline_eval_seconds = 0.0;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void fig2_item(benchmark::State& state, double r) {
  LiraOptions o;
  o.sizes = {kDatasets, kDatasets};
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    auto out = run_lira(o, r, kFig2Releases, 1);
    benchmark::DoNotOptimize(out);
    g_item_seconds += seconds_since(t0);
    g_item_cpu_seconds += static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    ++g_item_count;
  }
}

std::vector<ShadowDataset> datasets(long count, std::uint64_t seed) {
  const ShadowSetting s;
  SeededRng rng(seed);
  std::vector<ShadowDataset> d;
  for (long i = 0; i < count; ++i) d.push_back(draw_shadow_dataset(s, Hypothesis::Out, rng));
  return d;
}

void release_one_point(benchmark::State& state) {
  const ShadowSetting s;
  std::vector<TargetPosterior> p;
  for (const auto& d : datasets(kDatasets, 3)) p.push_back(target_posterior(s, d, 1.0));
  SeededRng rng(4);
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    auto obs = release_observables(p, {1.0, 1}, rng);
    benchmark::DoNotOptimize(obs);
    g_one_point_seconds = seconds_since(t0);
  }
}

void release_sample_dense(benchmark::State& state) {
  const ShadowSetting s;
  std::vector<Posterior> posts;
  for (const auto& d : datasets(kDatasets, 3))
    posts.emplace_back(s.kernel, d.X, d.y, Hyperparameters{1.0, 1.0});
  const Points x0 = Points::Constant(1, 1, 0.5);
  SeededRng rng(4);
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    double acc = 0.0;
    for (const auto& p : posts)
      acc += sample(p, x0, 1, rng, {.method = SamplerMethod::Dense}).values(0, 0);
    benchmark::DoNotOptimize(acc);
    g_sample_seconds = seconds_since(t0);
  }
}

// Baseline draws: 4 sets x 10³ datasets, per dataset a Posterior and one Dense draw per σ.
void baseline_draws(benchmark::State& state) {
  const ShadowSetting s;
  const Points x0 = Points::Constant(1, 1, 0.5);
  SeededRng rng(5);
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    double acc = 0.0;
    for (int set = 0; set < 4; ++set) {
      for (const auto& d : datasets(kDatasets / 10, 6 + static_cast<std::uint64_t>(set))) {
        for (const auto& rel : kFig2Releases) {
          const double sigma = std::isinf(rel.sigma) ? 1.0 : rel.sigma;
          const Posterior post(s.kernel, d.X, d.y, {1.0, sigma});
          acc += sample(post, x0, 1, rng, {.method = SamplerMethod::Dense}).values(0, 0);
        }
      }
    }
    benchmark::DoNotOptimize(acc);
    g_baseline_draw_seconds = seconds_since(t0) * 10.0;  // scaled to 10⁴ datasets per set
  }
}

// One evaluation of the latent-mixture log-likelihood on 10⁴ raw values, Gauss–Hermite over φ with
// tanh recomputed per point and node (the textbook way).
void baseline_likelihood(benchmark::State& state) {
  SeededRng rng(7);
  std::vector<double> t(kDatasets);
  for (auto& v : t) v = std::tanh(rng.standard_normal()) + 0.3 * rng.standard_normal();
  const auto& gh = gauss_hermite(48);
  const double w[2] = {0.4, 0.6}, m[2] = {-0.5, 1.0}, tau[2] = {0.7, 0.4}, s = 0.3;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    double ll = 0.0;
    for (double ti : t) {
      double dens = 0.0;
      for (int j = 0; j < 2; ++j) {
        for (std::size_t q = 0; q < gh.nodes.size(); ++q) {
          const double u = std::tanh(0.5 * (m[j] + std::sqrt(2.0) * tau[j] * gh.nodes[q]));
          const double z = (ti - u) / s;
          dens += w[j] * gh.weights[q] / std::sqrt(M_PI) * std::exp(-0.5 * z * z) /
                  (s * std::sqrt(2 * M_PI));
        }
      }
      ll += std::log(dens);
    }
    benchmark::DoNotOptimize(ll);
    g_baseline_eval_seconds = seconds_since(t0);
  }
}

}  // namespace

BENCHMARK_CAPTURE(fig2_item, r = 0.1, 0.1)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fig2_item, r = 1, 1.0)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(fig2_item, r = 10, 10.0)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(release_one_point)
    ->Name("release/one_point")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(release_sample_dense)
    ->Name("release/sample_dense")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(baseline_draws)
    ->Name("baseline/draws_1e3_per_set")
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK(baseline_likelihood)
    ->Name("baseline/likelihood_eval_1e4")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_item_count > 0) {
    const double item = g_item_seconds / g_item_count;
    const double projected = item * kFig2Items / 2.0;
    std::printf(
        "\nFigure 2 sweep (130 items of 4·10⁴ datasets x 4 σ), MEASURED on %d items, SCALED:\n",
        g_item_count);
    const double cpu = g_item_cpu_seconds / g_item_count;
    std::printf(
        "  this implementation: %.2f s per item (wall; CPU %.2f s) -> %.0f s (%.1f min) on 2 "
        "threads (%.0f s from CPU time, i.e. on 2 idle cores)\n",
        item, cpu, projected, projected / 60.0, cpu * kFig2Items / 2.0);
    if (g_baseline_draw_seconds > 0 && g_baseline_eval_seconds > 0) {
      const double baseline_item = g_baseline_draw_seconds + g_baseline_eval_seconds * 1200.0 * 8.0;
      const double baseline = baseline_item * kFig2Items / 2.0;
      std::printf(
          "  straightforward dense: %.1f s per item (draws %.1f s + fits %.1f s) -> %.0f s (%.1f "
          "h)\n",
          baseline_item, g_baseline_draw_seconds, g_baseline_eval_seconds * 9600.0, baseline,
          baseline / 3600.0);
      std::printf("  ratio (dense / this, wall times of this run): %.1fx\n", baseline_item / item);
    }
  }
  if (g_one_point_seconds > 0 && g_sample_seconds > 0) {
    std::printf(
        "one-point releases of 10⁴ datasets: direct %.2f ms, gpdp::sample(Dense) %.1f ms (%.0fx)\n",
        g_one_point_seconds * 1e3, g_sample_seconds * 1e3, g_sample_seconds / g_one_point_seconds);
  }
  return 0;
}
