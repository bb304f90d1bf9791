// Values answered through `gpdp serve` have the joint law of ONE exact posterior draw
// (docs/mathematics.md §1, lazy evaluation), as tests/test_release_lazy.cpp checks for
// `gpdp query`: a release of K = 150 independent paths at X₁, then two HTTP queries, X₂ and then
// X₃, each conditioned by the server on everything the path has answered. Per path, the five
// values must be N(μ, Σ) of the one-shot law on X₁ ∪ X₂ ∪ X₃.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <nlohmann/json.hpp>

#include "gpdp/io/csv.hpp"
#include "gpdp/posterior.hpp"
#include "support/paths.hpp"
#include "support/serve/release_fixture.hpp"
#include "support/serve/server_process.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

// Largest |off-diagonal| of E[z zᵀ] when the rows in `later` were drawn ignoring the rows before
// them (their cross-covariance set to zero): the effect the test must be able to see.
double effect_of_ignoring(const Eigen::MatrixXd& cov, const Eigen::MatrixXd& L, int first_later) {
  Eigen::MatrixXd wrong = cov;
  const int n = static_cast<int>(cov.rows()), m = n - first_later;
  wrong.block(0, first_later, first_later, m).setZero();
  wrong.block(first_later, 0, m, first_later).setZero();
  const Eigen::MatrixXd Linv =
      L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(n, n));
  const Eigen::MatrixXd cross = Linv * wrong * Linv.transpose();
  double effect = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) effect = std::max(effect, std::abs(cross(i, j)));
  return effect;
}

TEST(ServeLaw, AnswersThroughTheServerHaveTheOneShotJointLaw) {
  TempDir dir;
  const std::string data = dir.file("d.csv");
  write_text(data,
             "x1,x2,y\n0.05,0.1,0.3\n0.15,0.8,-0.2\n0.3,0.35,0.8\n0.45,0.9,0.1\n0.7,0.2,-0.6\n"
             "0.8,0.6,-0.9\n0.95,0.45,0.4\n");
  write_text(dir.file("x1.csv"), "x1,x2\n0.2,0.2\n0.6,0.6\n");
  const int K = 150;
  const auto release = run_cli(fmt::format(
      "release --data {} --domain 0:1,0:1 --kernel exp --ell 2 --r 1 --sigma 1 --delta 1e-3 "
      "--threshold 0 "
      "--points {} --draws {} --dataset law --ledger {} --out {} --keep-path {} --insecure-seed 11",
      data, dir.file("x1.csv"), K, dir.file("l.sqlite"), dir.file("out"), dir.file("p.gpdp")));
  ASSERT_EQ(release.exit_code, 0) << release.err;
  ServerProcess server(write_serve_config(
      dir,
      {release_entry({"law", dir.file("out"), dir.file("p.gpdp"), data}, R"("insecure_seed": 5)")},
      R"({"rate_per_second": 0})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  const json x2 = {{0.22, 0.2}, {0.62, 0.6}}, x3 = {{0.4, 0.42}};
  const auto r2 = server.post("/v1/releases/law/query", json{{"points", x2}}.dump());
  const auto r3 = server.post("/v1/releases/law/query", json{{"points", x3}}.dump());
  ASSERT_EQ(r2.status, 200) << r2.body;
  ASSERT_EQ(r3.status, 200) << r3.body;
  const json a2 = json::parse(r2.body), a3 = json::parse(r3.body);
  ASSERT_EQ(a2["paths"], K);
  // The one-shot law on the five points.
  const auto csv = io::read_csv(data);
  const Posterior post(Kernel::exponential(2.0), csv.numeric({"x1", "x2"}),
                       csv.numeric({"y"}).col(0), {1.0, 1.0});
  Points all(5, 2);
  all << 0.2, 0.2, 0.6, 0.6, 0.22, 0.2, 0.62, 0.6, 0.4, 0.42;
  const Eigen::VectorXd mu = post.mean(all);
  const Eigen::MatrixXd cov = post.covariance(all);
  const Eigen::MatrixXd L = cov.llt().matrixL();
  // Power: a server that drew X₂ ignoring X₁, or X₃ ignoring X₁ ∪ X₂, shifts an off-diagonal mean
  // of z zᵀ by at least 0.7; with K = 150 each has sd 1/√K ≈ 0.082, so the bound 0.35 (4.3 sd,
  // false alarm ≈ 2e-5 per pair) sees it with power > 0.99. Σ‖z‖² ~ χ²(5K): |S − 5K| < 4√(10K)
  // has false-alarm rate ≈ 6e-5.
  ASSERT_GE(effect_of_ignoring(cov, L, 2), 0.7);
  ASSERT_GE(effect_of_ignoring(cov, L, 4), 0.7);
  const Eigen::MatrixXd first = io::read_csv(dir.file("out/draws.csv")).numeric([&] {
    std::vector<std::string> names;
    for (int l = 1; l <= K; ++l) names.push_back(fmt::format("draw_{}", l));
    return names;
  }());
  double chi2 = 0;
  Eigen::MatrixXd cross = Eigen::MatrixXd::Zero(5, 5);
  for (int l = 0; l < K; ++l) {
    const auto pl = static_cast<std::size_t>(l);
    Eigen::VectorXd v(5);
    v << first(0, l), first(1, l), a2["draws"][0][pl].get<double>(),
        a2["draws"][1][pl].get<double>(), a3["draws"][0][pl].get<double>();
    const Eigen::VectorXd z = L.triangularView<Eigen::Lower>().solve(v - mu);
    chi2 += z.squaredNorm();
    cross += z * z.transpose();
  }
  cross /= K;
  EXPECT_LT(std::abs(chi2 - 5.0 * K), 4.0 * std::sqrt(10.0 * K)) << chi2;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < i; ++j) EXPECT_LT(std::abs(cross(i, j)), 0.35) << i << "," << j;
  RecordProperty("chi2_over_dof", std::to_string(chi2 / (5.0 * K)));
}

}  // namespace
}  // namespace gpdp::test
