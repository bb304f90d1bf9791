// Speed of the OPS sampler's hot loop on UCI Adult (N = 32561 training rows, d ≈ 100, one-hot:
// ≈ 14 non-zeros per row): the gradient of the summed logistic log-likelihood, and one whole OPS
// draw (mode + HMC, the reproduce settings), against the straightforward baseline measured in the
// same run: dense z·θ and zᵀw through Eigen's BLAS back end (OpenBLAS) with the per-record
// log1p/exp loop in between (the model's code before it was made fast); for the draw, the old
// sampler (fixed 8 leapfrog steps, value and gradient at every step) costed at the baseline's
// per-evaluation time, since running it with the baseline likelihood takes minutes.
//   GPDP_DATA_DIR (or the usual folders, see docs/ops.md) must hold adult_train.csv/adult_test.csv.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <ctime>

#include "gpdp/ops/data_source.hpp"
#include "gpdp/ops/hmc.hpp"
#include "gpdp/ops/logistic.hpp"
#include "gpdp/ops/one_posterior_sample.hpp"
#include "gpdp/ops/tempered_posterior.hpp"
#include "gpdp/rng.hpp"

namespace ops = gpdp::ops;

namespace {

const ops::ClassificationData& adult() {
  static const ops::ClassificationData data = [] {
    const ops::TabularSource source = ops::load_source("adult", "", "y");
    gpdp::SeededRng rng(1);
    return source.prepare(rng);
  }();
  return data;
}

const ops::LogisticModel& adult_model() {
  static const ops::LogisticModel model(adult().x_train, adult().y_train, 2.0);
  return model;
}

// Baseline: the previous LogisticModel::log_likelihood (dense products via BLAS, a separate
// per-record loop with two transcendental calls for the value and one for the weight).
double baseline_log_likelihood(const Eigen::MatrixXd& z, const Eigen::VectorXd& theta,
                               Eigen::VectorXd* grad) {
  const Eigen::VectorXd margin = z * theta;
  double total = 0.0;
  Eigen::VectorXd weight(margin.size());
  for (Eigen::Index i = 0; i < margin.size(); ++i) {
    total -= ops::log1p_exp(-margin(i));
    weight(i) = ops::logistic_sigmoid(-margin(i));
  }
  if (grad != nullptr) *grad = z.transpose() * weight;
  return total;
}

// Forwards to a model and counts the full-data evaluations (the sampler's cost unit).
class CountingModel final : public ops::BoundedLikelihoodModel {
 public:
  explicit CountingModel(const ops::BoundedLikelihoodModel& m) : m_(m) {}
  Eigen::Index dim() const override { return m_.dim(); }
  Eigen::Index size() const override { return m_.size(); }
  double radius() const override { return m_.radius(); }
  double log_likelihood_bound() const override { return m_.log_likelihood_bound(); }
  double gradient_bound() const override { return m_.gradient_bound(); }
  double log_likelihood_sensitivity() const override { return m_.log_likelihood_sensitivity(); }
  double record_log_likelihood(Eigen::Index i, const Eigen::VectorXd& th) const override {
    return m_.record_log_likelihood(i, th);
  }
  double log_likelihood(const Eigen::VectorXd& th, Eigen::VectorXd* g) const override {
    ++value_calls;
    return m_.log_likelihood(th, g);
  }
  Eigen::VectorXd log_likelihood_gradient(const Eigen::VectorXd& th) const override {
    ++gradient_calls;
    return m_.log_likelihood_gradient(th);
  }
  Eigen::VectorXd batch_gradient(const Eigen::VectorXd& th,
                                 std::span<const Eigen::Index> b) const override {
    return m_.batch_gradient(th, b);
  }
  Eigen::MatrixXd log_likelihood_hessian(const Eigen::VectorXd& th) const override {
    return m_.log_likelihood_hessian(th);
  }
  mutable long value_calls = 0;
  mutable long gradient_calls = 0;

 private:
  const ops::BoundedLikelihoodModel& m_;
};

Eigen::VectorXd test_theta(Eigen::Index d) {
  gpdp::SeededRng rng(7);
  Eigen::VectorXd th(d);
  rng.fill_standard_normal(th.data(), static_cast<std::size_t>(d));
  return th * (1.5 / th.norm());
}

void BM_Gradient_BaselineDenseBlas(benchmark::State& state) {
  const auto& m = adult_model();
  const Eigen::VectorXd th = test_theta(m.dim());
  Eigen::VectorXd g;
  for (auto _ : state)
    benchmark::DoNotOptimize(baseline_log_likelihood(m.signed_features(), th, &g));
}
BENCHMARK(BM_Gradient_BaselineDenseBlas)->Unit(benchmark::kMicrosecond);

void BM_ValueAndGradient_Model(benchmark::State& state) {
  const auto& m = adult_model();
  const Eigen::VectorXd th = test_theta(m.dim());
  Eigen::VectorXd g;
  for (auto _ : state) benchmark::DoNotOptimize(m.log_likelihood(th, &g));
}
BENCHMARK(BM_ValueAndGradient_Model)->Unit(benchmark::kMicrosecond);

void BM_GradientOnly_Model(benchmark::State& state) {
  const auto& m = adult_model();
  const Eigen::VectorXd th = test_theta(m.dim());
  for (auto _ : state) benchmark::DoNotOptimize(m.log_likelihood_gradient(th));
}
BENCHMARK(BM_GradientOnly_Model)->Unit(benchmark::kMicrosecond);

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Ratios in CPU seconds (the machine is shared: wall time says little).
void report() {
  const auto& m = adult_model();
  const Eigen::VectorXd th = test_theta(m.dim());
  Eigen::VectorXd g_base, g_new;
  const double v_base = baseline_log_likelihood(m.signed_features(), th, &g_base);
  const double v_new = m.log_likelihood(th, &g_new);
  auto per_call = [](auto&& f, int calls) {
    const double t0 = cpu_seconds();
    for (int i = 0; i < calls; ++i) f();
    return (cpu_seconds() - t0) / calls;
  };
  const int calls = 200;
  const double t_base = per_call(
      [&] { benchmark::DoNotOptimize(baseline_log_likelihood(m.signed_features(), th, &g_base)); },
      calls);
  const double t_value =
      per_call([&] { benchmark::DoNotOptimize(m.log_likelihood(th, &g_new)); }, calls);
  const double t_grad =
      per_call([&] { benchmark::DoNotOptimize(m.log_likelihood_gradient(th)); }, calls);
  std::printf("\nAdult: N = %ld, d = %ld, sparse storage: %s\n", static_cast<long>(m.size()),
              static_cast<long>(m.dim()), m.uses_sparse_storage() ? "yes" : "no");
  std::printf("agreement with the baseline: |value diff| = %.3g, max |grad diff| = %.3g\n",
              std::abs(v_base - v_new), (g_base - g_new).cwiseAbs().maxCoeff());
  std::printf(
      "CPU ms per call: baseline value+gradient %.3f, model value+gradient %.3f (x%.1f), "
      "model gradient only %.3f (x%.1f)\n",
      1e3 * t_base, 1e3 * t_value, t_base / t_value, 1e3 * t_grad, t_base / t_grad);

  // One OPS draw at the reproduce settings (2 chains × (200 + 100) iterations, integration time
  // ≈ 3, at most 8 leapfrog steps), and the same with the old fixed 8 leapfrog steps per iteration.
  auto draw = [&](double integration_time, double epsilon) {
    const CountingModel counted(m);
    ops::OpsOptions o;
    o.hmc.chains = 2;
    o.hmc.samples = 100;
    o.hmc.integration_time = integration_time;
    gpdp::SeededRng rng(3);
    const double t0 = cpu_seconds();
    const ops::OpsRelease r = ops::one_posterior_sample(counted, epsilon, o, rng);
    const double t = cpu_seconds() - t0;
    std::printf(
        "  %-34s eps = %-4g %6.2f CPU s, %5ld value+gradient and %5ld gradient-only evaluations, "
        "max R-hat %.3f, min ESS %.0f\n",
        integration_time > 1e6 ? "fixed 8 leapfrog steps (old):" : "integration time 3 (default):",
        epsilon, t, counted.value_calls, counted.gradient_calls, r.diagnostics.max_rhat,
        r.diagnostics.min_ess);
    return std::pair{t, counted.value_calls + counted.gradient_calls};
  };
  std::printf("one OPS draw on Adult:\n");
  for (const double eps : {0.1, 1.0}) {
    const auto [t_new, n_new] = draw(3.0, eps);
    const auto [t_old, n_old] = draw(1e9, eps);
    std::printf(
        "  eps = %g: old sampler with the baseline likelihood ~ %ld x %.2f ms = %.1f CPU s; "
        "new draw %.2f CPU s: x%.1f\n",
        eps, n_old, 1e3 * t_base, static_cast<double>(n_old) * t_base, t_new,
        static_cast<double>(n_old) * t_base / t_new);
    (void)t_old;
    (void)n_new;
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  report();
  return 0;
}
