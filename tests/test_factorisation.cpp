// Dense factorisations on a chosen device (gpdp/factorisation.hpp): the CPU routes are what the
// engines used before (Posterior's factor is Eigen's LLT bit for bit, so seeded outputs are
// unchanged), selecting a GPU is refused with the reason where there is none, and — where a CUDA
// device is present — cuSOLVER's potrf and syevd agree with LAPACK to a stated tolerance, through
// the posterior, the dense sampler (same seeded draws) and the spectral engine. Without a device
// those tests are skipped, saying why.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <string>

#include "gpdp/error.hpp"
#include "gpdp/factorisation.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/posteriors/distances.hpp"
#include "gpdp/posteriors/spectral.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "support/paths.hpp"

namespace gpdp {
namespace {

// K + r² I for n scattered points in [0, 1]² (squared-exponential kernel, ℓ = 0.2): ‖K‖ ≤ n.
Eigen::MatrixXd kernel_matrix(Eigen::Index n, double r) {
  const Points X = (Points::Random(n, 2).array() + 1.0) / 2.0;
  Eigen::MatrixXd k = Kernel::squared_exponential(0.2).gram(X);
  k.diagonal().array() += r * r;
  return k;
}

// Selects a device for the lifetime of the object (CPU again afterwards).
class OnDevice {
 public:
  explicit OnDevice(FactorDevice d) { set_factor_device(d); }
  ~OnDevice() { set_factor_device(FactorDevice::Cpu); }
};

// GTEST_SKIP unless factorisations can run on a GPU here.
#define SKIP_WITHOUT_GPU()                                              \
  if (const std::string why = gpu_unavailable_reason(); !why.empty()) { \
    GTEST_SKIP() << "GPU validation not run: " << why;                  \
  }

TEST(Factorisation, PosteriorCpuFactorIsEigensLltBitForBit) {
  const Eigen::MatrixXd a = kernel_matrix(300, 0.3);
  const auto ours = CholeskyFactor::compute(a);
  ASSERT_TRUE(ours.has_value());
  const Eigen::LLT<Eigen::MatrixXd> eigen(a);
  const Eigen::MatrixXd l_ours = ours->matrixL();
  const Eigen::MatrixXd l_eigen = eigen.matrixL();
  EXPECT_EQ((l_ours - l_eigen).cwiseAbs().maxCoeff(), 0.0);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(300, -1.0, 1.0);
  EXPECT_EQ((ours->solve(b) - eigen.solve(b)).cwiseAbs().maxCoeff(), 0.0);
  // Not positive definite: no factor.
  Eigen::MatrixXd indefinite = Eigen::MatrixXd::Identity(3, 3);
  indefinite(1, 1) = -1.0;
  EXPECT_FALSE(CholeskyFactor::compute(indefinite).has_value());
}

TEST(Factorisation, CpuCholeskyAndEigendecomposition) {
  const Eigen::MatrixXd a = kernel_matrix(200, 0.3);
  Eigen::MatrixXd l = a;
  ASSERT_EQ(cholesky_lower(l), 0);
  const Eigen::MatrixXd lower = l.triangularView<Eigen::Lower>();
  EXPECT_LT((lower * lower.transpose() - a).cwiseAbs().maxCoeff(),
            1e-12 * static_cast<double>(a.rows()));
  Eigen::MatrixXd u = a;
  Eigen::VectorXd lambda;
  ASSERT_EQ(symmetric_eigen(u, lambda), 0);
  for (Eigen::Index j = 1; j < lambda.size(); ++j) EXPECT_LE(lambda[j - 1], lambda[j]);
  EXPECT_LT((u * lambda.asDiagonal() * u.transpose() - a).cwiseAbs().maxCoeff(),
            1e-11 * static_cast<double>(a.rows()));
  Eigen::MatrixXd indefinite = Eigen::MatrixXd::Identity(3, 3);
  indefinite(2, 2) = -1.0;
  EXPECT_EQ(cholesky_lower(indefinite), 3);  // LAPACK: the leading 3 x 3 minor fails
}

TEST(Factorisation, DeviceNamesAndRefusal) {
  EXPECT_EQ(parse_factor_device("cpu"), FactorDevice::Cpu);
  EXPECT_EQ(parse_factor_device("gpu"), FactorDevice::Gpu);
  EXPECT_THROW(parse_factor_device("tpu"), InputError);
  EXPECT_STREQ(to_string(FactorDevice::Gpu), "gpu");
  EXPECT_EQ(factor_device(), FactorDevice::Cpu);
  const std::string why = gpu_unavailable_reason();
  if (why.empty()) GTEST_SKIP() << "a CUDA device is present: the GPU is selectable here";
  try {
    set_factor_device(FactorDevice::Gpu);
    FAIL() << "the GPU was selected without one";
  } catch (const ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
  EXPECT_EQ(factor_device(), FactorDevice::Cpu);
}

TEST(Factorisation, CliFactorFlag) {
  test::TempDir dir;
  test::write_text(dir.file("d.csv"), "x1,y\n0.1,0.5\n0.4,-0.2\n0.8,0.3\n");
  const std::string args = "sample --data " + dir.file("d.csv") +
                           " --kernel se --ell 0.3 --r 0.4 --sigma 1 --grid 0:1:20 --method dense "
                           "--seed 1 --out ";
  // The flag before or after the subcommand.
  EXPECT_EQ(test::run_cli("--factor cpu " + args + dir.file("a.csv")).exit_code, 0);
  EXPECT_EQ(test::run_cli(args + dir.file("b.csv") + " --factor cpu").exit_code, 0);
  EXPECT_EQ(test::read_text(dir.file("a.csv")), test::read_text(dir.file("b.csv")));
  const auto bad = test::run_cli("--factor tpu " + args + dir.file("c.csv"));
  EXPECT_NE(bad.exit_code, 0);
  if (!gpu_unavailable_reason().empty()) {
    const auto r = test::run_cli("--factor gpu " + args + dir.file("g.csv"));
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("GPU factorisation is not available"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("g.csv")));
  }
}

// ---- on a GPU (skipped without one) ---------------------------------------------------------
// Tolerances: both routes are backward stable, so eigenvalues agree to a small multiple of
// ε_mach ‖A‖ and factor entries to ε_mach κ(A) ‖A‖ (κ ≤ 1 + n/r² ≈ 10⁴ here): stated as
// 1e-10 ‖A‖ (‖A‖ ≤ n + r²). Posterior means and variances agree to ~ε_mach ‖K‖/r² (1e-8 stated);
// draws from the same normals to 1e-6 (the m x m factor adds its own conditioning).

TEST(FactorisationGpu, PotrfAndSyevdAgreeWithLapack) {
  SKIP_WITHOUT_GPU();
  const Eigen::MatrixXd a = kernel_matrix(1000, 0.3);
  const double norm = a.cwiseAbs().rowwise().sum().maxCoeff();
  Eigen::MatrixXd l_cpu = a, u_cpu = a, l_gpu = a, u_gpu = a;
  Eigen::VectorXd lambda_cpu, lambda_gpu;
  ASSERT_EQ(cholesky_lower(l_cpu), 0);
  ASSERT_EQ(symmetric_eigen(u_cpu, lambda_cpu), 0);
  {
    const OnDevice gpu(FactorDevice::Gpu);
    ASSERT_EQ(cholesky_lower(l_gpu), 0);
    ASSERT_EQ(symmetric_eigen(u_gpu, lambda_gpu), 0);
  }
  const Eigen::MatrixXd dl = (l_gpu - l_cpu).triangularView<Eigen::Lower>();
  EXPECT_LT(dl.cwiseAbs().maxCoeff(), 1e-10 * norm);
  EXPECT_LT((lambda_gpu - lambda_cpu).cwiseAbs().maxCoeff(), 1e-10 * norm);
  EXPECT_LT((u_gpu * lambda_gpu.asDiagonal() * u_gpu.transpose() - a).cwiseAbs().maxCoeff(),
            1e-10 * norm);
  // Not positive definite: the same info as LAPACK.
  Eigen::MatrixXd indefinite = Eigen::MatrixXd::Identity(3, 3);
  indefinite(2, 2) = -1.0;
  const OnDevice gpu(FactorDevice::Gpu);
  EXPECT_EQ(cholesky_lower(indefinite), 3);
}

TEST(FactorisationGpu, PosteriorSamplerAndSpectralEngineAgreeWithCpu) {
  SKIP_WITHOUT_GPU();
  const Points X = (Points::Random(800, 2).array() + 1.0) / 2.0;
  const Eigen::VectorXd y = X.col(0).array().sin().matrix();
  const Points xs = (Points::Random(100, 2).array() + 1.0) / 2.0;
  const Kernel kernel = Kernel::exponential(0.2);  // well-conditioned m x m covariance: full rank
  auto moments = [&](Eigen::VectorXd& mean, Eigen::VectorXd& var, Eigen::MatrixXd& draws,
                     Eigen::VectorXd& spectral) {
    const Posterior post(kernel, X, y, {0.3, 1.0});
    mean = post.mean(xs);
    var = post.variance(xs);
    SeededRng rng(11);  // the same normals on both devices: randomness stays on the CPU
    draws = sample(post, xs, 2, rng, {SamplerMethod::Dense, 0.0}).values;
    const PairwiseDistances d(X, xs);
    SpectralPosterior engine(d, y);
    engine.refit(kernel);
    Eigen::VectorXd v;
    engine.moments(0.3, spectral, v);
  };
  Eigen::VectorXd mean_cpu, var_cpu, spec_cpu, mean_gpu, var_gpu, spec_gpu;
  Eigen::MatrixXd draws_cpu, draws_gpu;
  moments(mean_cpu, var_cpu, draws_cpu, spec_cpu);
  {
    const OnDevice gpu(FactorDevice::Gpu);
    moments(mean_gpu, var_gpu, draws_gpu, spec_gpu);
  }
  EXPECT_LT((mean_gpu - mean_cpu).cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LT((var_gpu - var_cpu).cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LT((spec_gpu - spec_cpu).cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LT((draws_gpu - draws_cpu).cwiseAbs().maxCoeff(), 1e-6);
}

}  // namespace
}  // namespace gpdp
