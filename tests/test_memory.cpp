// Memory before allocation (gpdp/memory.hpp): the available-memory probe, and every dense path
// refusing a request that cannot fit — fast, with what it needs, what is available and the
// alternatives, and before allocating anything (the process's peak resident memory does not grow by
// more than the inputs).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gpdp/error.hpp"
#include "gpdp/experiments/search.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/posteriors/distances.hpp"
#include "gpdp/samplers/dense.hpp"
#include "gpdp/samplers/prior.hpp"
#include "gpdp/samplers/sample_path.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "support/paths.hpp"

namespace gpdp {
namespace {

// Peak resident set size of this process, bytes (Linux reports kB).
double peak_rss() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return 1024.0 * static_cast<double>(usage.ru_maxrss);
}

// Sets GPDP_MEMORY_LIMIT for the lifetime of the object.
class MemoryLimit {
 public:
  explicit MemoryLimit(const char* value) { setenv("GPDP_MEMORY_LIMIT", value, 1); }
  ~MemoryLimit() { unsetenv("GPDP_MEMORY_LIMIT"); }
};

double mem_total() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kb = 0;
  in >> key >> kb;  // "MemTotal: N kB" is the first line
  return kb * 1024.0;
}

// n points on [0, 1] and responses: the inputs of a posterior too large to factorise.
Posterior large_posterior(Eigen::Index n) {
  const Points X = Eigen::VectorXd::LinSpaced(n, 0.0, 1.0);
  const Eigen::VectorXd y = Eigen::VectorXd::Zero(n);
  return Posterior(Kernel::squared_exponential(0.2), X, y, {0.5, 1.0});
}

// Names the need, what is available, and the alternatives (aggregation, fewer or coarser points).
void expect_refusal_message(const std::string& what) {
  EXPECT_NE(what.find("needs"), std::string::npos) << what;
  EXPECT_NE(what.find("available; instead:"), std::string::npos) << what;
  EXPECT_NE(what.find("hexbin"), std::string::npos) << what;
  EXPECT_NE(what.find("points"), std::string::npos) << what;
}

TEST(Memory, AvailableIsPositiveAndBelowTheMachine) {
  const double available = static_cast<double>(available_memory());
  EXPECT_GT(available, 0.0);
  EXPECT_LE(available, mem_total());
}

TEST(Memory, LimitFromTheEnvironment) {
  {
    const MemoryLimit limit("512M");
    EXPECT_EQ(available_memory(), 512ULL << 20);
  }
  {
    const MemoryLimit limit("2G");
    EXPECT_EQ(available_memory(), 2ULL << 30);
  }
  {
    const MemoryLimit limit("4096");
    EXPECT_EQ(available_memory(), 4096ULL);
  }
  const MemoryLimit bad("lots");
  EXPECT_THROW(available_memory(), InputError);
}

TEST(Memory, DenseBytesSaturate) {
  EXPECT_EQ(dense_bytes(1000, 1000), 8000000ULL);
  EXPECT_EQ(dense_bytes(1000, 1000, 3), 24000000ULL);
  EXPECT_GT(dense_bytes(1e12, 1e12), 1e19);  // 8e24 saturates instead of wrapping
  EXPECT_EQ(format_bytes(2.5e9), "2.50 GB");
  EXPECT_EQ(format_bytes(6.4e11), "640.00 GB");
  EXPECT_EQ(format_bytes(3.2e13), "32.0 TB");
}

TEST(Memory, PosteriorFactorisationRefusedBeforeAllocating) {
  // n = 2·10⁵: K + r²I, factorised in place, needs 8 n² = 320 GB, far beyond any test machine.
  const Posterior post = large_posterior(200000);
  EXPECT_DOUBLE_EQ(post.pending_factor_bytes(), 3.2e11);
  const double before = peak_rss();
  try {
    (void)post.factor();
    FAIL() << "a 320 GB factorisation was not refused";
  } catch (const ResourceError& e) {
    expect_refusal_message(e.what());
    EXPECT_NE(std::string(e.what()).find("320.00 GB"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("n = 200000"), std::string::npos) << e.what();
  }
  EXPECT_LT(peak_rss() - before, 64e6);  // nothing of the 320 GB n x n matrix touched
  EXPECT_FALSE(post.has_dense_factor());
  // Every query that needs the factorisation refuses the same way.
  const Points xs = Eigen::VectorXd::LinSpaced(10, 0.0, 1.0);
  EXPECT_THROW(post.mean(xs), ResourceError);
  EXPECT_THROW(post.variance(xs), ResourceError);
  EXPECT_THROW(post.covariance(xs), ResourceError);
  EXPECT_THROW(post.effective_dimension(), ResourceError);
  EXPECT_LT(peak_rss() - before, 64e6);
}

TEST(Memory, DenseDrawRefusedBeforeAllocating) {
  // m = 10⁶ query points: the m x m covariance alone is 8 TB.
  const Posterior post = large_posterior(50);
  const Points xs = Eigen::VectorXd::LinSpaced(1000000, 0.0, 1.0);
  SeededRng rng(1);
  const double before = peak_rss();
  try {
    (void)sample(post, xs, 1, rng, {SamplerMethod::Dense, 0.0});
    FAIL() << "an 8 TB dense draw was not refused";
  } catch (const ResourceError& e) {
    expect_refusal_message(e.what());
    EXPECT_NE(std::string(e.what()).find("m = 1000000"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pathwise"), std::string::npos) << e.what();
  }
  EXPECT_LT(peak_rss() - before, 64e6);
  EXPECT_FALSE(post.has_dense_factor());
}

TEST(Memory, LimitDecidesAtTheBoundary) {
  // n = 300: the factorisation needs 8 · 300² = 720 kB. Refused under 512 kB, allowed under 1 MB.
  const Posterior small = large_posterior(300);
  {
    const MemoryLimit limit("512K");
    EXPECT_THROW((void)small.factor(), ResourceError);
    EXPECT_FALSE(small.has_dense_factor());
  }
  {
    const MemoryLimit limit("1M");
    EXPECT_NO_THROW((void)small.factor());
    EXPECT_TRUE(small.has_dense_factor());
    EXPECT_EQ(small.pending_factor_bytes(), 0.0);
  }
  // A cross-covariance needs its m_a x m_b block, not an m x m one: under 32 MB, 3000 x 3000 (72 MB
  // with 28.8 MB of n x m solves at n = 300) is refused, 3000 x 3 (72 kB + 28.8 MB) is not.
  {
    const Points a = Eigen::VectorXd::LinSpaced(3000, 0.0, 1.0);
    const MemoryLimit limit("32M");
    EXPECT_THROW((void)small.cross_covariance(a, a), ResourceError);  // 72 MB + 28.8 MB
    EXPECT_EQ(small.cross_covariance(a, a.topRows(3)).cols(), 3);
  }
  // factor_psd refuses its m x m copy under a limit below 8 m².
  const MemoryLimit limit("100K");
  EXPECT_THROW(factor_psd(Eigen::MatrixXd::Identity(200, 200)), ResourceError);  // 320 kB copy
}

TEST(Memory, SearchRefusedBeforeAnyEngine) {
  // One 2-D task with n = 2·10⁵ records: its distances and engines need 4 · 8 n² ≈ 1.3 TB.
  using experiments::ExcursionTask;
  const Eigen::Index n = 200000;
  auto eval = std::make_shared<const Points>(Points::Random(10, 2));
  auto weights = std::make_shared<const Eigen::VectorXd>(Eigen::VectorXd::Constant(10, 0.1));
  std::vector<ExcursionTask> tasks{
      {Points::Random(n, 2), Eigen::VectorXd::Zero(n), eval, weights, Eigen::VectorXd::Zero(10)}};
  const double before = peak_rss();
  try {
    const experiments::ExcursionObjective objective(tasks, 0.0, 2);
    FAIL() << "a 1.3 TB search was not refused";
  } catch (const ResourceError& e) {
    expect_refusal_message(e.what());
    EXPECT_NE(std::string(e.what()).find("n up to 200000"), std::string::npos) << e.what();
  }
  EXPECT_LT(peak_rss() - before, 64e6);
  // The same task in 1-D runs on the O(n) Markov engine: nothing dense to refuse.
  auto eval1 = std::make_shared<const Points>(Points::Random(10, 1));
  std::vector<ExcursionTask> markov{
      {Points::Random(n, 1), Eigen::VectorXd::Zero(n), eval1, weights, Eigen::VectorXd::Zero(10)}};
  EXPECT_NO_THROW(experiments::ExcursionObjective(markov, 0.0, 2));
}

TEST(Memory, DistancesPriorSamplerAndLazyPathRefused) {
  const Points scattered = Points::Random(1000000, 2);  // 16 MB of inputs
  const Points X = Points::Random(20, 2);
  SamplePath path(Posterior(Kernel::exponential(0.3), X, Eigen::VectorXd::Zero(20), {0.5, 1.0}));
  SeededRng rng(3);
  (void)path.evaluate(X.topRows(5), rng);  // k = 5 answered points
  const double before = peak_rss();
  // Distances of 10⁶ records: 8 TB per n x n matrix.
  EXPECT_THROW(PairwiseDistances(scattered, scattered.topRows(10)), ResourceError);
  // A dense prior draw on 10⁶ scattered points (no grid, no circulant embedding): 16 TB.
  try {
    PriorSampler prior(Kernel::exponential(0.3), scattered, std::nullopt, {});
    FAIL() << "a 16 TB prior factorisation was not refused";
  } catch (const ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("m = 1000000"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("circulant"), std::string::npos) << e.what();
  }
  // A kept path asked for 2·10⁵ new points in 2-D (a query): the m x m conditional, 640 GB. (The
  // path's index of its answered points is O(m): ~25 MB here, within the bound below.)
  try {
    (void)path.evaluate(scattered.topRows(200000), rng);
    FAIL() << "a 640 GB conditional draw was not refused";
  } catch (const ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("200000 new point(s) on 5 answered"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("fewer points"), std::string::npos) << e.what();
  }
  EXPECT_LT(peak_rss() - before, 64e6);
  // Under the limit the same paths run (1000 points: 16 MB).
  EXPECT_EQ(path.evaluate(scattered.topRows(1000), rng).size(), 1000);
}

TEST(Memory, CliSampleRefusesWithExitCodeAndNoOutput) {
  test::TempDir dir;
  test::write_text(dir.file("train.csv"), "x1,x2,y\n0.1,0.2,0.5\n0.3,0.7,-0.2\n0.6,0.4,0.8\n");
  // A 3000 x 3000 grid drawn densely: m = 9·10⁶, an m x m covariance of 648 TB.
  const auto res = test::run_cli("sample --data " + dir.file("train.csv") +
                                 " --kernel se --ell 0.3 --r 0.4 --sigma 1 --grid2d "
                                 "0:1:3000,0:1:3000 --method dense --seed 1 --out " +
                                 dir.file("draws.csv"));
  EXPECT_NE(res.exit_code, 0);
  EXPECT_NE(res.err.find("needs"), std::string::npos) << res.err;
  EXPECT_NE(res.err.find("available"), std::string::npos) << res.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("draws.csv")));
}

// The CLI's dense paths under a limit override (GPDP_MEMORY_LIMIT, inherited by the child):
// non-zero exit, the need/available/alternatives message, nothing written, no ledger row.
class CliUnderLimit : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string csv = "x1,x2,y\n";
    for (int i = 0; i < 40; ++i)
      csv += fmt::format("{},{},{}\n", (i % 8 + 0.5) / 8, (i / 8 + 0.5) / 5, 0.1 * (i % 7) - 0.3);
    test::write_text(dir.file("d.csv"), csv);
  }
  static void expect_refused(const test::CommandResult& r) {
    EXPECT_NE(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("needs"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("available"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("instead"), std::string::npos) << r.err;
  }
  test::TempDir dir;
  const std::string model = " --kernel se --ell 0.3 --r 0.4 --sigma 1";
};

TEST_F(CliUnderLimit, PosteriorRefusedAndUnaffectedUnderTheLimit) {
  const std::string args =
      "posterior --data " + dir.file("d.csv") + model + " --points " + dir.file("d.csv");
  {
    const MemoryLimit limit("8K");  // n = 40: K is 12.8 kB
    const auto r = test::run_cli(args + " --out " + dir.file("refused.csv"));
    expect_refused(r);
    EXPECT_NE(r.err.find("n = 40"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("refused.csv")));
  }
  const MemoryLimit limit("64K");
  const auto r = test::run_cli(args + " --out " + dir.file("ok.csv"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.file("ok.csv")));
}

TEST_F(CliUnderLimit, ReleaseRefusedRecordsNothing) {
  const std::string ledger = dir.file("ledger.sqlite");
  // A masked-free 2-D grid drawn densely: m = 400 points, the m x m covariance is 1.28 MB.
  const std::string args = "release --data " + dir.file("d.csv") + model +
                           " --domain 0:1,0:1 --grid2d 0:1:20,0:1:20 --sampler dense --threshold 0 "
                           "--delta 1e-3 --target-epsilon 10 --dataset d --insecure-seed 1 "
                           "--ledger " +
                           ledger + " --out ";
  const MemoryLimit limit("1M");
  const auto r = test::run_cli(args + dir.file("out"));
  expect_refused(r);
  EXPECT_NE(r.err.find("m = 400"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out")));
  const auto rows = test::run_cli("ledger show --json " + ledger);
  EXPECT_EQ(rows.out.find("\"epsilon\""), std::string::npos) << rows.out;  // no release recorded
}

TEST_F(CliUnderLimit, SearchAndPreviewRefused) {
  std::string val = "x1,x2,y\n";
  for (int i = 0; i < 30; ++i) val += fmt::format("{},{},{}\n", (i % 6) / 6.0, (i / 6) / 5.0, 0.2);
  test::write_text(dir.file("val.csv"), val);
  const MemoryLimit limit("16K");  // n = 40: 4 K's alone are 51 kB
  auto r = test::run_cli("search --data " + dir.file("d.csv") + " --validation " +
                         dir.file("val.csv") + " --target-epsilon 1 --json");
  expect_refused(r);
  EXPECT_NE(r.err.find("hyperparameter search"), std::string::npos) << r.err;
  r = test::run_cli(
      "preview --domain 0:1,0:1 --grid2d 0:1:16,0:1:12 --threshold 0 --delta 1e-3 --n 500 "
      "--epsilons 1 --simulations 3 --draws-grid 1 --ell 0.3 --sigma 1 --r 0.3 --quiet --out " +
      dir.file("preview"));
  expect_refused(r);
  EXPECT_NE(r.err.find("simulated releases"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("preview")));
}

}  // namespace
}  // namespace gpdp
