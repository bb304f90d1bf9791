// Speed of the privacy–utility experiments (docs/utility.md):
//  * one Table 1 column (NSR = 1, n = 100, m = 800, full search with refinement, constrained +
//    unconstrained, B = 50) measured on a SUBSET of pairs and scaled to 10³ pairs, against the
//    straightforward dense-Cholesky approach on the same work (per-posterior costs measured here,
//    multiplied by the same counts). GPDP_BENCH_PAIRS (default 20): pairs in the subset.
//  * Table 4 (2-D, n = 400, 40 x 40 grid, three NSR columns): the NSR = 1 column run end to end on
//    a SUBSET of pairs with the spectral search route (one eigendecomposition per ℓ) and again
//    with the direct route (one Cholesky posterior per (ℓ, r)) on the same pairs, scaled to
//    3 columns x 10³ pairs. GPDP_BENCH_PAIRS_2D (default 3): pairs in that subset.
#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>

#include "gpdp/experiments/fields.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/search.hpp"
#include "gpdp/experiments/utility_study.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/posteriors/ridge_cholesky.hpp"
#include "gpdp/posteriors/spectral.hpp"
#include "gpdp/posteriors/tridiagonal.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "gpdp/tasks/executor.hpp"
#include "gpdp/vector_exp.hpp"

namespace gx = gpdp::experiments;

namespace {

using Clock = std::chrono::steady_clock;

// Process CPU time (all threads): on a shared, overloaded machine wall time says little; CPU
// seconds / 2 is the wall time on 2 idle cores for this perfectly parallel work.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

gx::ExcursionTask make_task(std::uint64_t seed) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:800");
  gpdp::SeededRng rng(seed);
  const auto p = gx::generate_field_1d({100, 1.0, 1.0}, grid, rng);
  return {p.X, p.y, std::make_shared<const gpdp::Points>(grid.points()),
          std::make_shared<const Eigen::VectorXd>(gx::trapezoid_weights(grid)), p.truth};
}

// The straightforward way: Cholesky of K + r²I, μ = K_*X α, k_D = 1 − ‖L⁻¹ K_X*‖² per column.
Eigen::VectorXd dense_z(const gx::ExcursionTask& t, double ell, double r) {
  const gpdp::Kernel k = gpdp::Kernel::exponential(ell);
  Eigen::MatrixXd kxx = k.gram(t.X);
  kxx.diagonal().array() += r * r;
  const Eigen::LLT<Eigen::MatrixXd> llt(kxx);
  const Eigen::MatrixXd kxs = k.cross(t.X, *t.eval_points);
  const Eigen::VectorXd mu = kxs.transpose() * llt.solve(t.y);
  const Eigen::MatrixXd v = llt.matrixL().solve(kxs);
  const Eigen::VectorXd kd = (1.0 - v.colwise().squaredNorm().transpose().array()).max(1e-300);
  return (mu.array() / kd.array().sqrt()).matrix();
}

void BM_PosteriorZ_Markov(benchmark::State& state) {
  const auto t = make_task(1);
  for (auto _ : state) benchmark::DoNotOptimize(gx::excursion_z(t, 0.5, 0.7, 0.0));
}
BENCHMARK(BM_PosteriorZ_Markov)->Unit(benchmark::kMicrosecond);

void BM_PosteriorZ_DenseCholesky(benchmark::State& state) {
  const auto t = make_task(1);
  for (auto _ : state) benchmark::DoNotOptimize(dense_z(t, 0.5, 0.7));
}
BENCHMARK(BM_PosteriorZ_DenseCholesky)->Unit(benchmark::kMicrosecond);

gx::ExcursionPair plume_pair(std::uint64_t seed) {
  gpdp::SeededRng rng(seed);
  return gx::generate_plume_2d({}, gpdp::Grid::parse("0:1:40,0:1:40"), rng);
}

// 2-D, n = 400, m = 1600: one eigendecomposition + A = K_*X U (per ℓ; distances shared by all ℓ
// of a pair, as in the search) ...
void BM_Spectral2d_PerEll(benchmark::State& state) {
  const auto p = plume_pair(1);
  const gpdp::PairwiseDistances d(p.X, gpdp::Grid::parse("0:1:40,0:1:40").points());
  gpdp::SpectralPosterior post(d, p.y);
  post.refit(gpdp::Kernel::exponential(0.4));
  for (auto _ : state) {
    post.refit(gpdp::Kernel::exponential(0.5));  // storage reused, as in the search
    benchmark::DoNotOptimize(post.eigenvalues().data());
  }
}
BENCHMARK(BM_Spectral2d_PerEll)->Unit(benchmark::kMillisecond);

// ... then z₁ for one more r ...
void BM_Spectral2d_PerR(benchmark::State& state) {
  const auto p = plume_pair(1);
  const gpdp::PairwiseDistances d(p.X, gpdp::Grid::parse("0:1:40,0:1:40").points());
  gpdp::SpectralPosterior post(d, p.y);
  post.refit(gpdp::Kernel::exponential(0.5));
  for (auto _ : state) benchmark::DoNotOptimize(post.excursion_z({0.7}, 0.0));
}
BENCHMARK(BM_Spectral2d_PerR)->Unit(benchmark::kMillisecond);

// ... or one tridiagonal reduction + B = K(xs, X) Q per ℓ (the hybrid route, ≥ 3 r per ℓ) ...
void BM_Tridiagonal2d_PerEll(benchmark::State& state) {
  const auto p = plume_pair(1);
  const gpdp::PairwiseDistances d(p.X, gpdp::Grid::parse("0:1:40,0:1:40").points());
  gpdp::TridiagonalPosterior post(d, p.y);
  for (auto _ : state) {
    post.refit(gpdp::Kernel::exponential(0.5));
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Tridiagonal2d_PerEll)->Unit(benchmark::kMillisecond);

void BM_Tridiagonal2d_PerR(benchmark::State& state) {
  const auto p = plume_pair(1);
  const gpdp::PairwiseDistances d(p.X, gpdp::Grid::parse("0:1:40,0:1:40").points());
  gpdp::TridiagonalPosterior post(d, p.y);
  post.refit(gpdp::Kernel::exponential(0.5));
  for (auto _ : state) benchmark::DoNotOptimize(post.excursion_z({0.7}, 0.0));
}
BENCHMARK(BM_Tridiagonal2d_PerR)->Unit(benchmark::kMillisecond);

// ... against one Cholesky per (ℓ, r) on the same distances (the hybrid route's refinement steps)
// ...
void BM_Cholesky2d_PerR(benchmark::State& state) {
  const auto p = plume_pair(1);
  const gpdp::PairwiseDistances d(p.X, gpdp::Grid::parse("0:1:40,0:1:40").points());
  gpdp::RidgeCholesky ridge(d, p.y);
  ridge.refit(gpdp::Kernel::exponential(0.5));
  for (auto _ : state) benchmark::DoNotOptimize(ridge.excursion_z({0.7}, 0.0));
}
BENCHMARK(BM_Cholesky2d_PerR)->Unit(benchmark::kMillisecond);

// ... the kernel matrices of one ℓ from the distances (both routes) ...
void BM_KernelMatrices2d_PerEll(benchmark::State& state) {
  const auto p = plume_pair(1);
  const gpdp::PairwiseDistances d(p.X, gpdp::Grid::parse("0:1:40,0:1:40").points());
  Eigen::MatrixXd k, kc;
  for (auto _ : state) {
    d.kernel_matrices(gpdp::Kernel::exponential(0.5), k, kc);
    benchmark::DoNotOptimize(kc.data());
  }
}
BENCHMARK(BM_KernelMatrices2d_PerEll)->Unit(benchmark::kMillisecond);

// ... against one Posterior (Cholesky) per (ℓ, r).
void BM_Direct2d_PerEllR(benchmark::State& state) {
  const auto p = plume_pair(1);
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:40,0:1:40");
  const gx::ExcursionTask t{p.X, p.y, std::make_shared<const gpdp::Points>(grid.points()),
                            std::make_shared<const Eigen::VectorXd>(gx::trapezoid_weights(grid)),
                            p.truth};
  for (auto _ : state) benchmark::DoNotOptimize(gx::excursion_z(t, 0.5, 0.7, 0.0));
}
BENCHMARK(BM_Direct2d_PerEllR)->Unit(benchmark::kMillisecond);

double seconds_per_call(const std::function<void()>& f, int calls) {
  const double t0 = cpu_seconds();
  for (int i = 0; i < calls; ++i) f();
  return (cpu_seconds() - t0) / calls;
}

void table1_column_report() {
  const char* env = std::getenv("GPDP_BENCH_PAIRS");
  const long pairs = env ? std::atol(env) : 20;
  gx::StudySpec spec;
  spec.label = "bench";
  spec.field1d = {100, 1.0, 1.0};
  spec.pairs = pairs;
  spec.validation_pairs = pairs;
  spec.releases = 50;
  spec.search.coarse = gx::default_search_grid(1);
  const auto t0 = Clock::now();
  const double c0 = cpu_seconds();
  gpdp::tasks::ThreadExecutor executor(spec.threads, gpdp::lab::registry());
  const gx::StudyResult r = gx::run_study(spec, executor);
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  const double measured = cpu_seconds() - c0;
  const double scale = 1000.0 / static_cast<double>(pairs);

  // Per-posterior and per-release costs, fast vs dense, on the same pairs.
  const auto task = make_task(2);
  const double z_fast = seconds_per_call(
      [&] { benchmark::DoNotOptimize(gx::excursion_z(task, 0.5, 0.7, 0.0)); }, 200);
  const double z_dense =
      seconds_per_call([&] { benchmark::DoNotOptimize(dense_z(task, 0.5, 0.7)); }, 20);
  const gpdp::Posterior post(gpdp::Kernel::exponential(0.5), task.X, task.y, {5.0, 0.1});
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:800");
  gpdp::SeededRng rng(3);
  gpdp::SampleOptions dense_opt;
  dense_opt.method = gpdp::SamplerMethod::Dense;
  const double s_fast =
      seconds_per_call([&] { benchmark::DoNotOptimize(gpdp::sample(post, grid, 50, rng)); }, 20);
  const double s_dense = seconds_per_call(
      [&] { benchmark::DoNotOptimize(gpdp::sample(post, grid, 50, rng, dense_opt)); }, 3);
  // The same work with dense posteriors: every (ℓ, r) fitted per pair (search population and,
  // for C, the validation population), plus the B = 50 draws per pair.
  const double posteriors =
      static_cast<double>(r.distinct_posteriors) * static_cast<double>(pairs) +
      2.0 * static_cast<double>(pairs);
  const double dense_estimate =
      measured + posteriors * (z_dense - z_fast) + static_cast<double>(pairs) * (s_dense - s_fast);
  std::printf(
      "\nTable 1 column (NSR = 1, n = 100, m = 800, %ld distinct θ over %ld (ℓ, r) posteriors per "
      "pair, "
      "B = 50):\n"
      "  measured on %ld pairs (+%ld validation): %.2f CPU s (wall %.2f s on this machine)\n"
      "  scaled linearly to 1000 pairs: %.1f CPU s = %.1f s wall on 2 idle cores\n"
      "  dense-Cholesky approach on the same work (per-call CPU costs measured here: posterior "
      "%.3f ms vs"
      " %.3f ms, 50 draws %.2f ms vs %.2f ms): %.2f CPU s on the subset -> %.1f CPU s = %.1f s on "
      "2 cores"
      " scaled\n"
      "  ratio dense / gpdp: %.1fx\n",
      r.distinct_thetas, r.distinct_posteriors, pairs, pairs, measured, wall, measured * scale,
      measured * scale / 2.0, 1e3 * z_dense, 1e3 * z_fast, 1e3 * s_dense, 1e3 * s_fast,
      dense_estimate, dense_estimate * scale, dense_estimate * scale / 2.0,
      dense_estimate / measured);
}

void table4_report() {
  const char* env = std::getenv("GPDP_BENCH_PAIRS_2D");
  const long pairs = env ? std::atol(env) : 3;
  gx::StudySpec spec;
  spec.label = "bench 2-D";
  spec.dim = 2;
  spec.field2d.n = 400;
  spec.field2d.nsr = 1.0;
  spec.grid = gpdp::Grid::parse("0:1:40,0:1:40");
  spec.pairs = pairs;
  spec.validation_pairs = pairs;
  spec.releases = 50;
  spec.privacy.delta = 0.001;
  spec.smoothing_bandwidth = 0.03;
  spec.search.coarse = gx::default_search_grid(2);
  auto timed = [&](gx::PosteriorRoute route, gx::StudyResult* out) {
    spec.search_route = route;
    const double c0 = cpu_seconds();
    gpdp::tasks::ThreadExecutor executor(spec.threads, gpdp::lab::registry());
    *out = gx::run_study(spec, executor);
    return cpu_seconds() - c0;
  };
  gx::StudyResult fast, spectral, direct;
  const double t_fast = timed(gx::PosteriorRoute::Auto, &fast);  // hybrid in 2-D
  const double t_spectral = timed(gx::PosteriorRoute::Spectral, &spectral);
  const double t_direct = timed(gx::PosteriorRoute::Direct, &direct);
  auto same = [](const gx::StudyResult& a, const gx::StudyResult& b) {
    auto close = [](const gx::Theta& x, const gx::Theta& y) {
      return std::abs(std::log(x.ell / y.ell)) < 1e-9 && std::abs(std::log(x.r / y.r)) < 1e-9 &&
             std::abs(std::log(x.sigma / y.sigma)) < 1e-9;
    };
    return close(a.theta_private, b.theta_private) &&
           close(a.theta_unconstrained, b.theta_unconstrained);
  };
  const double scale = 3.0 * 1000.0 / static_cast<double>(pairs);
  std::printf(
      "\nTable 4 (2-D, n = 400, m = 1600, NSR = 1 column, %ld distinct θ over %ld (ℓ, r) per pair, "
      "B = 50):\n"
      "  measured on %ld pairs (+%ld validation), default (hybrid) search: %.2f CPU s (search %.2f "
      "s wall, "
      "releases %.2f s wall); per pair %.1f reductions + %.1f single-ridge fits\n"
      "  same pairs, spectral (one eigendecomposition per ℓ and round) search: %.2f CPU s (%.1f "
      "per pair)\n"
      "  same pairs, direct (Cholesky posterior per (ℓ, r)) search: %.2f CPU s (search %.2f s "
      "wall)\n"
      "  same θ chosen by all three: %s\n"
      "  scaled linearly to 3 columns x 1000 pairs: default %.0f CPU s = %.1f min on 2 idle cores;"
      " spectral %.1f min; direct %.0f CPU s = %.1f min\n"
      "  ratio direct / default: %.2fx, spectral / default: %.2fx (AVX2 exp and sweep: %s)\n",
      fast.distinct_thetas, fast.distinct_posteriors, pairs, pairs, t_fast, fast.seconds_search,
      fast.seconds_release, fast.reductions_per_pair, fast.single_ridge_fits_per_pair, t_spectral,
      spectral.reductions_per_pair, t_direct, direct.seconds_search,
      same(fast, direct) && same(spectral, direct) ? "yes" : "NO", t_fast * scale,
      t_fast * scale / 120.0, t_spectral * scale / 120.0, t_direct * scale,
      t_direct * scale / 120.0, t_direct / t_fast, t_spectral / t_fast,
      gpdp::avx2_fma_available() ? "yes" : "no, scalar fallback");
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  const char* which = std::getenv("GPDP_BENCH_REPORT");  // table1 | table4 | (unset: both)
  if (which == nullptr || std::string(which) == "table1") table1_column_report();
  if (which == nullptr || std::string(which) == "table4") table4_report();
  return 0;
}
