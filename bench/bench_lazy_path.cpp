// New-point latency of a lazy path as the number k of answered points grows (issue #30), old and
// new in one run:
//   new  the path keeps its conditioning (path_conditioning.hpp) and extends it per query;
//   old  the conditioning is formed from scratch for every query, as `gpdp query` and `gpdp serve`
//        did before: the path restored from its state (points, values), its k x k covariance
//        factorised, then the query drawn (here by the same pivoted Cholesky as the new path's
//        rebuild; the previous code used a symmetric eigendecomposition, slower still).
// 2-D data (n = 200, Matérn 3/2, ℓ = 0.3, r = 0.5, σ = 1): the path answers a 10 x 10 grid, then
// random points in batches until k; at each k the median latency of 1-point queries of new
// random points (each undone with truncate(), so k stays put), the fitted growth exponent of the
// new latency, and at the largest k the memory the conditioning holds and the process' peak RSS.
//
//   build/bench_lazy_path [k ...]     default: 100 1000 5000 10000
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "gpdp/posterior.hpp"
#include "gpdp/samplers/sample_path.hpp"

namespace {

using namespace gpdp;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

Points random_points(Eigen::Index m, SeededRng& rng) {
  Points p(m, 2);
  for (Eigen::Index i = 0; i < p.size(); ++i) p(i) = rng.uniform01();
  return p;
}

double peak_rss_gb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0 / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> ks;
  for (int i = 1; i < argc; ++i) ks.push_back(std::atol(argv[i]));
  if (ks.empty()) ks = {100, 1000, 5000, 10000};
  std::sort(ks.begin(), ks.end());

  SeededRng data_rng(1);
  const Eigen::Index n = 200;
  Points x = random_points(n, data_rng);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) y[i] = std::sin(6.0 * x(i, 0)) * std::cos(4.0 * x(i, 1));
  const Posterior posterior(Kernel::matern32(0.3), x, y, {0.5, 1.0});

  SeededRng rng(2), points_rng(3);
  SamplePath path(posterior);
  path.evaluate(Grid::parse("0:1:10,0:1:10"), rng);  // the release: k = 100
  path.prepare_conditioning();

  std::printf("%8s %14s %14s %10s %12s\n", "k", "new p50 ms", "old p50 ms", "old/new", "memory MB");
  std::vector<double> log_k, log_t;
  for (const long k : ks) {
    while (path.size() < k) {
      const Eigen::Index m = std::min<Eigen::Index>(500, k - path.size());
      path.evaluate(random_points(m, points_rng), rng);
    }
    std::vector<double> fresh;
    for (int q = 0; q < 15; ++q) {
      const Points p = random_points(1, points_rng);
      const auto t0 = Clock::now();
      path.evaluate(p, rng);
      fresh.push_back(seconds_since(t0));
      path.truncate(k);
    }
    std::vector<double> scratch;
    const int old_reps = k <= 1000 ? 5 : 1;
    for (int q = 0; q < old_reps; ++q) {
      const Points p = random_points(1, points_rng);
      const auto t0 = Clock::now();
      SamplePath restored(posterior, 0.0, path.points(), path.values());
      restored.evaluate(p, rng);
      scratch.push_back(seconds_since(t0));
    }
    const double t_new = median(fresh), t_old = median(scratch);
    log_k.push_back(std::log(static_cast<double>(k)));
    log_t.push_back(std::log(t_new));
    std::printf("%8ld %14.2f %14.1f %10.0f %12.0f\n", k, 1e3 * t_new, 1e3 * t_old, t_old / t_new,
                path.conditioning_bytes() / 1e6);
    std::fflush(stdout);
  }
  if (log_k.size() >= 2) {
    // Least-squares slope of log(latency) on log(k).
    const double mk = std::accumulate(log_k.begin(), log_k.end(), 0.0) / log_k.size();
    const double mt = std::accumulate(log_t.begin(), log_t.end(), 0.0) / log_t.size();
    double sxy = 0.0, sxx = 0.0;
    for (std::size_t i = 0; i < log_k.size(); ++i) {
      sxy += (log_k[i] - mk) * (log_t[i] - mt);
      sxx += (log_k[i] - mk) * (log_k[i] - mk);
    }
    std::printf("growth exponent of the new latency (fit over k = %ld..%ld): %.2f\n", ks.front(),
                ks.back(), sxy / sxx);
  }
  std::printf("at k = %ld: conditioning %.0f MB, process peak RSS %.2f GB\n", ks.back(),
              path.conditioning_bytes() / 1e6, peak_rss_gb());
  return 0;
}
