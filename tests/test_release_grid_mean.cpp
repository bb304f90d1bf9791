// The grid mean (release/grid_mean.hpp, docs/privacy.md "The grid mean"): its RDP curve against the
// closed form and against the exact Rényi divergence of concrete neighbouring datasets (never
// above, attained by the worst same-cell and cross-cell pairs); calibration; the event's JSON;
// a release's certificate, ledger record and cells.csv; the lazy path's joint law against the
// post-processing posterior rebuilt here, independently, from cells.csv; and the cells map
// (--grid-map cells): the threshold of the noisy cell means, at the GP map's spend.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "gpdp/auditor/gaussian_divergence.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/kept_path.hpp"
#include "gpdp/release/lazy_answers.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/release.hpp"
#include "support/gof.hpp"
#include "support/paths.hpp"

namespace gpdp::release {
namespace {

privacy::GpMechanism grid_mean(long n, double M_Y, double s_S, double s_N = 0.0) {
  privacy::GpMechanism m;
  m.kind = privacy::MechanismKind::GridMean;
  m.n = n;
  m.M_Y = M_Y;
  m.noise_scale = s_S;
  m.count_noise = s_N;
  return m;
}

TEST(ReleaseGridMean, CurveIsTheClosedForm) {
  // M_Y = 1, s_S = 2, s_N = 0.5: within a cell 4/4 = 1, across cells 2/4 + 2/0.25 = 8.5.
  for (const double alpha : {1.01, 2.0, 7.5, 100.0})
    EXPECT_NEAR(privacy::grid_mean_rdp(alpha, 1.0, 2.0, 0.5), alpha * 8.5 / 2, 1e-12 * alpha);
  // M_Y = 3, s_S = 2, s_N = 10: within 36/4 = 9, across 18/4 + 2/100 = 4.52: the within case binds.
  EXPECT_NEAR(privacy::grid_mean_rdp(2.0, 3.0, 2.0, 10.0), 9.0, 1e-12);
  // The public default s_N = s_S/M_Y equalises both: 2αM²/s_S² (M = 1.5, s_S = 3: α/2).
  const privacy::GpMechanism m = grid_mean(100, 1.5, 3.0);
  EXPECT_DOUBLE_EQ(privacy::grid_mean_count_noise(m), 2.0);
  const privacy::RdpCurve c = privacy::rdp_curve(m);
  EXPECT_NEAR(c(3.0), 1.5, 1e-12);
  EXPECT_TRUE(std::isinf(c.alpha_max()));
  EXPECT_TRUE(std::isinf(c(1.0)));
  // With the Mironov conversion ε(δ) is the Gaussian mechanism's ρ + 2√(ρ log(1/δ)), ρ = 2M²/s².
  const double rho = 2 * 1.5 * 1.5 / 9.0, delta = 1e-5;
  EXPECT_NEAR(privacy::account(m, 1, delta, privacy::Conversion::Mironov).epsilon,
              rho + 2 * std::sqrt(rho * std::log(1 / delta)), 1e-9);
}

// Replace-one neighbours on concrete datasets: the exact Rényi divergence of the two released
// tables N(v(D), diag(s_S², s_N²)) vs N(v(D'), ...) never exceeds the curve, and the worst pairs
// (same cell, responses ∓M_Y; across cells, |y| = |y'| = M_Y) attain it.
TEST(ReleaseGridMean, ExactDivergenceOfNeighboursNeverExceedsTheCurveAndAttainsIt) {
  const Box domain = Box::parse("0:1,0:2");
  const CellLayout layout{domain, {3, 4}};
  const double M = 1.0;
  SeededRng rng(5);
  for (const auto& [sS, sN] :
       std::vector<std::pair<double, double>>{{2.0, 0.0}, {1.0, 3.0}, {4.0, 0.7}}) {
    const privacy::GpMechanism m = grid_mean(30, M, sS, sN);
    const double s_N = privacy::grid_mean_count_noise(m);
    const Eigen::Index C = layout.size();
    Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(2 * C, 2 * C);
    cov.diagonal().head(C).setConstant(sS * sS);
    cov.diagonal().tail(C).setConstant(s_N * s_N);
    const auto released = [&](const Points& X, const Eigen::VectorXd& y) {
      const CellAggregates a = aggregate_cells(layout, X, y);
      Eigen::VectorXd v(2 * C);
      v << a.sums, a.counts;
      return v;
    };
    const privacy::RdpCurve curve = privacy::rdp_curve(m);
    double worst_ratio = 0.0;
    for (int trial = 0; trial < 400; ++trial) {
      Points X(30, 2);
      Eigen::VectorXd y(30);
      for (Eigen::Index i = 0; i < 30; ++i) {
        X(i, 0) = rng.uniform01();
        X(i, 1) = 2 * rng.uniform01();
        y(i) = M * (2 * rng.uniform01() - 1);
      }
      Points X2 = X;
      Eigen::VectorXd y2 = y;
      // Half the trials: the worst cases (same cell ±M_Y, or different cells at |y| = M_Y).
      if (trial % 2 == 0) {
        const bool same = trial % 4 == 0;
        y(0) = -M;
        y2(0) = same ? M : (trial % 8 == 2 ? -M : M);
        X2(0, 0) = same ? X(0, 0) : std::fmod(X(0, 0) + 0.5, 1.0);
        X2(0, 1) = same ? X(0, 1) : std::fmod(X(0, 1) + 1.0, 2.0);
      } else {
        X2(0, 0) = rng.uniform01();
        X2(0, 1) = 2 * rng.uniform01();
        y2(0) = M * (2 * rng.uniform01() - 1);
      }
      const Eigen::VectorXd a = released(X, y), b = released(X2, y2);
      for (const double alpha : {1.5, 4.0, 20.0}) {
        const double exact = auditor::gaussian_renyi_divergence(alpha, a, cov, b, cov);
        EXPECT_LE(exact, curve(alpha) * (1 + 1e-12) + 1e-12) << "trial " << trial;
        worst_ratio = std::max(worst_ratio, exact / curve(alpha));
      }
    }
    EXPECT_NEAR(worst_ratio, 1.0, 1e-9) << "s_S = " << sS << ", s_N = " << s_N;
  }
}

TEST(ReleaseGridMean, AggregatesAndCells) {
  const CellLayout layout{Box::parse("0:1,0:2"), {2, 2}};
  Points X(4, 2);
  X << 0.1, 0.1, 0.9, 0.1, 0.5, 2.0, 1.0, 1.99;  // (0.5, 2) and the upper edges: the last cells
  const CellAggregates a = aggregate_cells(layout, X, Eigen::Vector4d(0.5, -1, 0.25, 1));
  EXPECT_EQ(a.counts, Eigen::Vector4d(1, 1, 0, 2));
  EXPECT_EQ(a.sums, Eigen::Vector4d(0.5, -1, 0, 1.25));
  EXPECT_EQ(layout.centres().row(3), Eigen::RowVector2d(0.75, 1.5));
  // The UG rule: n ε / 10 cells, split like the domain's sides, capped.
  EXPECT_EQ(ug_cells(Box::parse("0:1,0:1"), 1000, 1.0).counts, (std::vector<long>{10, 10}));
  EXPECT_EQ(ug_cells(Box::parse("0:2,0:1"), 800, 1.0).counts, (std::vector<long>{13, 6}));
  EXPECT_LE(ug_cells(Box::parse("0:1,0:1"), 100000, 30.0).size(), kGridMeanMaxCells);
  EXPECT_EQ(ug_cells(Box::parse("0:1"), 5, 0.5).counts, (std::vector<long>{1}));
}

TEST(ReleaseGridMean, DefaultCellsAreTheUgCountCappedAtFiveRecordsPerCell) {
  const Box unit = Box::parse("0:1,0:1"), wide = Box::parse("0:2,0:1");
  // C = min(n ε / 10, n / 5): the UG count below ε = 2, n / 5 from there on.
  // n = 1000, ε = 1: 100 cells, 10 x 10 (the UG rule's).
  EXPECT_EQ(grid_mean_cells(unit, 1000, 1.0).counts, (std::vector<long>{10, 10}));
  // n = 1000, ε = 10: the UG rule's 1000 cells (one record each) capped at 200; √200 = 14.1.
  EXPECT_EQ(grid_mean_cells(unit, 1000, 10.0).counts, (std::vector<long>{14, 14}));
  EXPECT_EQ(ug_cells(unit, 1000, 10.0).counts, (std::vector<long>{32, 32}));
  // n = 800, ε = 10 on a 2 x 1 domain: 160 cells of side h = √(2/160) = 0.112: 17.9 x 8.9.
  EXPECT_EQ(grid_mean_cells(wide, 800, 10.0).counts, (std::vector<long>{18, 9}));
  // n = 5: one cell (n/5 = 1) at any ε.
  EXPECT_EQ(grid_mean_cells(Box::parse("0:1"), 5, 30.0).counts, (std::vector<long>{1}));
  // Monotone in ε and n, never above the UG rule, and constant from ε = 2 on.
  long previous = 0;
  for (const double eps : {0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0, 30.0, 100.0}) {
    const long c = grid_mean_cells(unit, 1000, eps).size();
    EXPECT_GE(c, previous) << eps;
    EXPECT_LE(c, ug_cells(unit, 1000, eps).size()) << eps;
    if (eps >= 2.0) {
      EXPECT_EQ(c, 196) << eps;
    }
    previous = c;
  }
  previous = 0;
  for (const long n : {10L, 100L, 1000L, 10000L, 100000L}) {
    const long c = grid_mean_cells(unit, n, 10.0).size();
    EXPECT_GE(c, previous) << n;
    previous = c;
  }
  // The total cap still holds: n = 10⁵ at ε = 30 asks for 20,000.
  EXPECT_EQ(grid_mean_cells(unit, 100000, 30.0).counts, (std::vector<long>{50, 50}));
}

TEST(ReleaseGridMean, CalibrationMeetsTheTargetAndTheEventReplays) {
  const privacy::GpMechanism m = grid_mean(500, 1.0, 1.0);
  for (const double target : {0.5, 1.0, 10.0}) {
    const auto c = privacy::calibrate(m, 1, privacy::CalibrationParameter::Noise,
                                      {target, 1e-4, privacy::Conversion::Mironov});
    EXPECT_LE(c.achieved.epsilon, target);
    EXPECT_GT(c.achieved.epsilon, target * (1 - 1e-6));
    const double rho = 2.0 / (c.value * c.value);
    EXPECT_NEAR(rho + 2 * std::sqrt(rho * std::log(1e4)), c.achieved.epsilon, 1e-9);
    EXPECT_DOUBLE_EQ(privacy::grid_mean_count_noise(c.mechanism), c.value);
  }
  privacy::GpMechanism g = grid_mean(500, 2.0, 3.0, 0.8);
  g.cells = {7, 5};
  const privacy::Event e{g, 1};
  const nlohmann::json j = privacy::to_json(e);
  EXPECT_EQ(j["kind"], "grid-mean");
  EXPECT_EQ(j["count_noise"], 0.8);
  const privacy::Event back = privacy::event_from_json(j, "t");
  EXPECT_EQ(privacy::to_json(back), j);
  const privacy::Accountant a =
      privacy::Accountant::replay(privacy::Accountant().add(e).record(), "t");
  EXPECT_EQ(a.rdp(3.0), privacy::grid_mean_rdp(3.0, 2.0, 3.0, 0.8));
}

// A small 2-D data set with a signal: responses y = sin(4 x₁) x₂ + noise (model units, |y| ≤ 1).
std::string data_csv(int n, std::uint64_t seed) {
  SeededRng rng(seed);
  std::string s = "x1,x2,y\n";
  for (int i = 0; i < n; ++i) {
    const double a = rng.uniform01(), b = rng.uniform01();
    s += fmt::format("{},{},{}\n", io::format_number(a), io::format_number(b),
                     io::format_number(std::sin(4 * a) * b + 0.2 * rng.standard_normal()));
  }
  return s;
}

ReleaseRequest grid_mean_request(const test::TempDir& dir) {
  test::write_text(dir.file("d.csv"), data_csv(400, 3));
  test::write_text(dir.file("pts.csv"), "x1,x2\n0.1,0.2\n0.11,0.21\n0.6,0.7\n0.61,0.71\n");
  ReleaseRequest q;
  q.data_path = dir.file("d.csv");
  q.input.domain = Box::parse("0:1,0:1");
  q.mechanism.kind = privacy::MechanismKind::GridMean;
  q.mechanism.kernel = Kernel::exponential(0.4);
  q.mechanism.r = 1.0;
  q.mechanism.sigma = 0.5;
  q.mechanism.noise_scale = 1.0;
  q.calibration = CalibrationGoal{privacy::CalibrationParameter::Noise, 3.0};
  q.delta = 1e-4;
  q.threshold = 0.1;
  q.evaluation = FilePoints{dir.file("pts.csv")};
  q.ledger_path = dir.file("l.sqlite");
  q.dataset = "grid";
  return q;
}

TEST(ReleaseGridMean, ReleaseCertifiesRecordsAndPublishesTheTable) {
  test::TempDir dir;
  ReleaseRequest q = grid_mean_request(dir);
  q.out_dir = dir.file("out");
  q.insecure_seed = 4;
  const ReleaseOutcome o = run_release(q);
  const auto& c = o.certificate;
  EXPECT_EQ(c["mechanism"]["kind"], "grid-mean");
  EXPECT_LE(c["guarantee"]["epsilon"].get<double>(), 3.0);
  // The default cells at n = 400, ε = 3: min(n ε / 10, n / 5) = min(120, 80) = 80 cells in the
  // unit square, √80 = 8.9: 9 x 9.
  EXPECT_EQ(c["mechanism"]["cells"], nlohmann::json::array({9, 9}));
  EXPECT_EQ(c["grid_mean"]["cells"], 81);
  ASSERT_EQ(c["privacy_record"]["events"].size(), 1u);
  EXPECT_EQ(c["privacy_record"]["events"][0]["kind"], "grid-mean");
  EXPECT_EQ(c["parts"][0]["epsilon"], c["guarantee"]["epsilon"]);
  const double s = c["mechanism"]["noise_scale"].get<double>();
  EXPECT_DOUBLE_EQ(c["mechanism"]["count_noise"].get<double>(), s);  // s_S / M_Y, M_Y = 1
  // The record replays to the certified ε.
  const auto replay = privacy::Accountant::replay(c["privacy_record"], "certificate");
  EXPECT_DOUBLE_EQ(replay.epsilon(q.delta, q.conversion).epsilon,
                   c["guarantee"]["epsilon"].get<double>());
  const auto cells = io::read_csv(q.out_dir + "/cells.csv");
  EXPECT_EQ(cells.numeric({"noisy_sum"}).rows(), 81);
  const auto draws = io::read_csv(q.out_dir + "/draws.csv");
  const Eigen::VectorXd prob = draws.numeric({"probability"}).col(0);
  const Eigen::VectorXd map = draws.numeric({"draw_1"}).col(0);
  const Eigen::VectorXd in_set = draws.numeric({"in_set"}).col(0);
  for (Eigen::Index i = 0; i < map.size(); ++i) {
    EXPECT_EQ(in_set(i), map(i) >= 0.1 ? 1.0 : 0.0);
    EXPECT_EQ(prob(i) >= 0.5, map(i) >= 0.1);
  }
}

// The post-processing posterior rebuilt from cells.csv by the documented rule, independently of
// grid_mean.cpp: prior mean μ₀ = clamp(ΣS̃/n), cells with Ñ ≥ 1, m̂ = clamp(S̃/Ñ),
// v = (s_S² + m̂² s_N²)/Ñ² + σ²r²/Ñ; GP(μ₀, ψ² k) with ψ = M_Y = 1 conditioned on them.
struct Reference {
  Eigen::VectorXd mean;
  Eigen::MatrixXd cov;
};
Reference reference_law(const std::string& cells_csv, const Points& at, long n, double sS,
                        double sN, const Kernel& k, double r, double sigma) {
  const auto t = io::read_csv(cells_csv);
  const Eigen::VectorXd S = t.numeric({"noisy_sum"}).col(0), N = t.numeric({"noisy_count"}).col(0);
  const Eigen::MatrixXd centres = t.numeric({"x1_centre", "x2_centre"});
  const double mu0 = std::clamp(S.sum() / static_cast<double>(n), -1.0, 1.0);
  std::vector<Eigen::Index> kept;
  for (Eigen::Index c = 0; c < N.size(); ++c)
    if (N(c) >= 1.0) kept.push_back(c);
  const auto K = static_cast<Eigen::Index>(kept.size());
  Eigen::MatrixXd C(K, 2);
  Eigen::VectorXd z(K), v(K);
  for (Eigen::Index j = 0; j < K; ++j) {
    const Eigen::Index c = kept[static_cast<std::size_t>(j)];
    C.row(j) = centres.row(c);
    z(j) = std::clamp(S(c) / N(c), -1.0, 1.0);
    v(j) = (sS * sS + z(j) * z(j) * sN * sN) / (N(c) * N(c)) + sigma * sigma * r * r / N(c);
  }
  const double psi = 1.0;  // the prior scale: M_Y of grid_mean_request, not the release's σ
  Eigen::MatrixXd A = psi * psi * k.gram(C);
  A.diagonal() += v;
  const Eigen::LLT<Eigen::MatrixXd> llt(A);
  const Eigen::MatrixXd B = psi * psi * k.cross(C, at);
  Reference ref;
  ref.mean = (mu0 + (B.transpose() * llt.solve((z.array() - mu0).matrix())).array()).matrix();
  ref.cov = psi * psi * k.gram(at) - B.transpose() * llt.solve(B);
  return ref;
}

// The lazy path (what gpdp query and gpdp serve answer, lazy_answers.hpp): answering X₁ then X₂
// has the joint law of the post-processing posterior on X₁ ∪ X₂. K = 1500 paths of one release.
// Power: the same draws are tested against the law that ignores the conditioning on X₁ (X₂ from
// its marginal) and rejected (p < 1e-6).
TEST(ReleaseGridMean, LazyPathHasThePostProcessingPosteriorsJointLaw) {
  test::TempDir dir;
  ReleaseRequest q = grid_mean_request(dir);
  q.out_dir = dir.file("out");
  q.keep_path = KeepPath{dir.file("p.gpdp"), {}};
  const ReleaseOutcome o = run_release(q);
  const KeptPath kept = load_kept_path(q.keep_path->file, {});
  ASSERT_TRUE(kept.table.has_value());
  ASSERT_EQ(kept.paths.size(), 1u);
  EXPECT_EQ(kept.paths[0].points.rows(), 0);
  const PreparedData prepared = kept_path_data(q.data_path, kept);
  const KeptPathModel model = kept_path_model(kept, prepared, q.keep_path->file);
  Points x1(2, 2), x2(2, 2);
  x1 << 0.1, 0.2, 0.6, 0.7;
  x2 << 0.11, 0.21, 0.61, 0.71;  // close to x1: the posterior correlation the power check needs
  Points all(4, 2);
  all << x1, x2;
  const double sS = o.certificate["mechanism"]["noise_scale"].get<double>();
  const double sN = o.certificate["mechanism"]["count_noise"].get<double>();
  const Reference ref =
      reference_law(q.out_dir + "/cells.csv", all, 400, sS, sN, Kernel::exponential(0.4), 1.0, 0.5);
  // The prior scale is M_Y = 1, not the release's σ = 0.5 (the reference uses ψ = 1, and the
  // released map below matches it to 1e-9; with ψ = σ it would not).
  EXPECT_EQ(o.certificate["grid_mean"]["prior_scale"].get<double>(), 1.0);
  EXPECT_EQ(o.certificate["grid_mean"]["min_count"].get<double>(), 1.0);
  // The certificate's prior mean and the released map agree with the reference.
  EXPECT_NEAR(o.certificate["grid_mean"]["prior_mean"]["model_units"].get<double>(), kept.offset,
              0);
  const auto draws = io::read_csv(q.out_dir + "/draws.csv");
  const Eigen::VectorXd map = draws.numeric({"draw_1"}).col(0);
  // draws.csv lists the points as pts.csv does: x1's first, then x2's, interleaved.
  const Eigen::Index at[] = {0, 2, 1, 3};
  for (Eigen::Index i = 0; i < 4; ++i) EXPECT_NEAR(map(i), ref.mean(at[i]), 1e-9);
  const int K = 1500;
  Eigen::MatrixXd values(4, K);
  for (int k = 0; k < K; ++k) {
    KeptPath s = kept;
    SeededRng r1(10000 + static_cast<std::uint64_t>(k)), r2(50000 + static_cast<std::uint64_t>(k));
    values.col(k).head(2) = answer_points(s, model.posterior, model.lattice, x1, r1).col(0);
    values.col(k).tail(2) = answer_points(s, model.posterior, model.lattice, x2, r2).col(0);
  }
  const test::GaussianFit fit = test::check_gaussian(values, ref.mean, ref.cov);
  EXPECT_EQ(fit.rank, 4);
  EXPECT_GT(fit.chi2_p, 1e-4);
  EXPECT_GT(fit.ks_min_p, 1e-4);
  Eigen::MatrixXd unconditioned = ref.cov;
  unconditioned.block(0, 2, 2, 2).setZero();
  unconditioned.block(2, 0, 2, 2).setZero();
  EXPECT_LT(test::check_gaussian(values, ref.mean, unconditioned).chi2_p, 1e-6);
}

// --grid-map cells: the same seeded release as the GP map (the same noisy table, bit for bit),
// whose map at each point is its own cell's noisy mean clamp(S̃/Ñ, ±1) (Ñ < 1: clamp(ΣS̃/n, ±1)),
// recomputed here from cells.csv's bounds; the released set is {map ≥ t}; no probability column;
// and the certificate's and the ledger's spend are the GP map's exactly (post-processing).
TEST(ReleaseGridMean, CellsMapIsTheThresholdedNoisyCellMeansAtTheSameSpend) {
  std::vector<nlohmann::json> certs, records;
  std::vector<std::string> outs;
  std::string pts = "x1,x2\n";
  for (int i = 0; i < 15; ++i)
    for (int j = 0; j < 15; ++j) pts += fmt::format("{},{}\n", (i + 0.5) / 15, (j + 0.3) / 15);
  test::TempDir dir;
  for (const GridMap map : {GridMap::Gp, GridMap::Cells}) {
    const std::string name = to_string(map);
    ReleaseRequest q = grid_mean_request(dir);
    test::write_text(dir.file("pts.csv"), pts);
    q.grid_map = map;
    q.out_dir = dir.file("out-" + name);
    q.ledger_path = dir.file("l-" + name + ".sqlite");
    q.insecure_seed = 11;
    certs.push_back(run_release(q).certificate);
    outs.push_back(q.out_dir);
    const auto summary = Ledger::open_existing(q.ledger_path).dataset("grid");
    ASSERT_TRUE(summary.has_value());
    ASSERT_EQ(summary->releases.size(), 1u);
    records.push_back(summary->releases[0].record);
  }
  EXPECT_EQ(certs[0]["grid_mean"]["map"], "gp");
  EXPECT_EQ(certs[1]["grid_mean"]["map"], "cells");
  for (const char* key : {"guarantee", "parts", "privacy_record", "mechanism"})
    EXPECT_EQ(certs[0][key], certs[1][key]) << key;
  EXPECT_EQ(records[0], records[1]);
  const auto gp_cells = io::read_csv(outs[0] + "/cells.csv");
  const auto t = io::read_csv(outs[1] + "/cells.csv");
  const Eigen::VectorXd S = t.numeric({"noisy_sum"}).col(0), N = t.numeric({"noisy_count"}).col(0);
  EXPECT_EQ(S, gp_cells.numeric({"noisy_sum"}).col(0));
  EXPECT_EQ(N, gp_cells.numeric({"noisy_count"}).col(0));
  const Eigen::MatrixXd lo = t.numeric({"x1_lo", "x2_lo"}), hi = t.numeric({"x1_hi", "x2_hi"});
  const double mu0 = std::clamp(S.sum() / 400.0, -1.0, 1.0);
  const auto draws = io::read_csv(outs[1] + "/draws.csv");
  EXPECT_THROW(draws.numeric({"probability"}), Error);
  const Eigen::MatrixXd x = draws.numeric({"x1", "x2"});
  const Eigen::VectorXd map = draws.numeric({"draw_1"}).col(0);
  const Eigen::VectorXd in_set = draws.numeric({"in_set"}).col(0);
  ASSERT_EQ(map.size(), 225);
  int empty = 0, in = 0;
  for (Eigen::Index i = 0; i < map.size(); ++i) {
    Eigen::Index c = -1;  // the cell holding x_i (no point lies on a cell edge here)
    for (Eigen::Index k = 0; k < lo.rows(); ++k)
      if ((x.row(i).array() >= lo.row(k).array()).all() &&
          (x.row(i).array() < hi.row(k).array()).all())
        c = k;
    ASSERT_GE(c, 0);
    const double expected = N(c) >= 1.0 ? std::clamp(S(c) / N(c), -1.0, 1.0) : mu0;
    empty += N(c) < 1.0;
    EXPECT_DOUBLE_EQ(map(i), expected) << i;
    EXPECT_EQ(in_set(i), expected >= 0.1 ? 1.0 : 0.0) << i;
    in += in_set(i) > 0;
  }
  // The check covers both branches and both sides of t.
  EXPECT_GT(empty, 0);
  EXPECT_GT(in, 0);
  EXPECT_LT(in, 225);
}

TEST(ReleaseGridMean, GridMapIsTheGridMeansAndTheCellsMapKeepsNoPath) {
  test::TempDir dir;
  ReleaseRequest q = grid_mean_request(dir);
  q.grid_map = GridMap::Cells;
  q.keep_path = KeepPath{dir.file("p.gpdp"), {}};
  EXPECT_THROW(check_public_parameters(q), ParameterError);
  ReleaseRequest p = grid_mean_request(dir);
  p.mechanism.kind = privacy::MechanismKind::PosteriorSample;
  p.calibration.reset();
  p.grid_map = GridMap::Gp;
  EXPECT_THROW(check_public_parameters(p), ParameterError);
  EXPECT_EQ(parse_grid_map("cells"), GridMap::Cells);
  EXPECT_EQ(parse_grid_map("gp"), GridMap::Gp);
  EXPECT_THROW(parse_grid_map("raw"), InputError);
}

}  // namespace
}  // namespace gpdp::release
