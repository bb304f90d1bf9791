// Lazy evaluation through the release/query round trip (path file saved, restored, extended):
// values released at X₁ by `release` and at X₂ later by `query` must have the joint law of ONE
// exact posterior draw on X₁ ∪ X₂ (docs/mathematics.md §1), which is what one-shot sampling draws.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

#include "gpdp/io/csv.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/release.hpp"
#include "support/paths.hpp"

namespace gpdp::release {
namespace {

TEST(ReleaseLazy, QueryThenReleaseHasTheOneShotJointLaw) {
  test::TempDir dir;
  const std::string data = dir.file("d.csv");
  test::write_text(data,
                   "x1,y\n0.05,0.3\n0.15,-0.2\n0.3,0.8\n0.45,0.1\n0.7,-0.6\n0.8,-0.9\n0.95,0.4\n");
  test::write_text(dir.file("x1.csv"), "x1\n0.2\n0.6\n");
  test::write_text(dir.file("x2.csv"), "x1\n0.25\n0.65\n");
  ReleaseRequest q;
  q.data_path = data;
  q.input.domain = Box::parse("0:1");
  q.mechanism.kernel = Kernel::exponential(2.0);
  q.mechanism.r = 1.0;
  q.mechanism.sigma = 1.0;
  q.delta = 1e-3;
  q.evaluation = FilePoints{dir.file("x1.csv")};
  q.ledger_path = dir.file("l.sqlite");
  q.dataset = "lazy";
  // The exact joint law on (0.2, 0.6, 0.25, 0.65).
  const auto csv = io::read_csv(data);
  const Posterior post(Kernel::exponential(2.0), csv.numeric({"x1"}), csv.numeric({"y"}).col(0),
                       {1.0, 1.0});
  const std::vector<double> coords = {0.2, 0.6, 0.25, 0.65};
  Points all(4, 1);
  for (Eigen::Index i = 0; i < 4; ++i) all(i, 0) = coords[static_cast<std::size_t>(i)];
  const Eigen::VectorXd mu = post.mean(all);
  const Eigen::MatrixXd L = post.covariance(all).llt().matrixL();
  // Power: a query that ignored the earlier answers (X₂ drawn from its marginal law, independent
  // of X₁) would give E[z zᵀ] = L⁻¹ Σ' L⁻ᵀ with Σ' block-diagonal; its largest off-diagonal entry
  // is the effect the test must see.
  Eigen::MatrixXd wrong = post.covariance(all);
  wrong.block(0, 2, 2, 2).setZero();
  wrong.block(2, 0, 2, 2).setZero();
  const Eigen::MatrixXd Linv =
      L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(4, 4));
  const Eigen::MatrixXd wrong_cross = Linv * wrong * Linv.transpose();
  double effect = 0.0;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < i; ++j) effect = std::max(effect, std::abs(wrong_cross(i, j)));
  }
  // K = 150 trials. Σ‖z‖² ~ χ²(4K) under the right law: |S − 4K| < 4√(8K) has false-alarm
  // rate ≈ 6e-5. Each off-diagonal mean of z_i z_j has sd 1/√K ≈ 0.082: the bound 0.35 (4.3 sd)
  // has false-alarm rate ≈ 2e-5 per pair; the effect of ignoring the conditioning is checked to
  // be ≥ 0.7 (power > 0.99 at this K).
  ASSERT_GE(effect, 0.7);
  const int K = 150;
  double chi2 = 0.0;
  Eigen::MatrixXd cross = Eigen::MatrixXd::Zero(4, 4);
  for (int k = 0; k < K; ++k) {
    q.out_dir = dir.file(fmt::format("out{}", k));
    q.keep_path = KeepPath{dir.file(fmt::format("p{}.gpdp", k)), {}};
    q.insecure_seed = static_cast<std::uint64_t>(1000 + k);
    run_release(q);
    QueryRequest qq;
    qq.path_file = q.keep_path->file;
    qq.data_path = data;
    qq.evaluation = FilePoints{dir.file("x2.csv")};
    qq.out_csv = dir.file(fmt::format("q{}.csv", k));
    qq.insecure_seed = static_cast<std::uint64_t>(900000 + k);
    run_query(qq);
    const Eigen::MatrixXd first = io::read_csv(q.out_dir + "/draws.csv").numeric({"draw_1"});
    const Eigen::MatrixXd later = io::read_csv(qq.out_csv).numeric({"draw_1"});
    Eigen::VectorXd v(4);
    for (Eigen::Index i = 0; i < 2; ++i) {
      v(i) = first(i, 0);
      v(i + 2) = later(i, 0);
    }
    const Eigen::VectorXd z = L.triangularView<Eigen::Lower>().solve(v - mu);
    chi2 += z.squaredNorm();
    cross += z * z.transpose();
  }
  cross /= K;
  EXPECT_LT(std::abs(chi2 - 4.0 * K), 4.0 * std::sqrt(8.0 * K)) << chi2;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < i; ++j) EXPECT_LT(std::abs(cross(i, j)), 0.35) << i << "," << j;
  }
}

}  // namespace
}  // namespace gpdp::release
