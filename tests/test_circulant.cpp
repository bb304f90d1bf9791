// Circulant embedding (docs/mathematics.md §3): eigenvalues against a dense construction of the
// same circulant, exactness of the embedding on the lattice, the 2-D exponential trap, and the law
// of the draws.
//
// Statistical tests (fixed seeds, so deterministic): each check rejects when the binned χ² p-value
// of the Mahalanobis distances or the Bonferroni-corrected per-coordinate KS p-value is below 1e-4,
// or when an entry of the whitened sample covariance is more than 5.5 standard errors from the
// identity (≤ 78 entries: false alarm ≤ 78 · 4e-8). Together ≤ 3e-4 per check. With 2·10⁴ draws
// the whitened-covariance check detects a covariance error of 0.04 (whitened units).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/samplers/circulant.hpp"
#include "support/gof.hpp"
#include "support/lattice_points.hpp"

namespace gpdp {
namespace {

constexpr int kDraws = 20000;
constexpr double kAlpha = 1e-4;

// The embedding's row written out independently from its definition (header of circulant.hpp):
// minimal/padded: k at the minimum-image lag; cut-off: k on [0, d], b₀(c − r)² on [d, c], 0
// beyond, summed over all periodic images.
double reference_row(const Kernel& k, const Lattice& lat, const EmbeddingChoice& ch, long j1,
                     long j2) {
  const long m1 = ch.torus[0], m2 = lat.dim() > 1 ? ch.torus[1] : 1;
  const double h1 = lat.steps[0], h2 = lat.dim() > 1 ? lat.steps[1] : 0.0;
  if (ch.kind != EmbeddingKind::CutOff) {
    const double a = static_cast<double>(std::min(j1, m1 - j1)) * h1;
    const double b = static_cast<double>(std::min(j2, m2 - j2)) * h2;
    return k.of_distance(std::sqrt(a * a + b * b));
  }
  const double d = ch.cutoff_inner, c = ch.cutoff_outer;
  const double b0 = k.of_distance(d) / ((c - d) * (c - d));
  double sum = 0.0;
  for (long p1 = -4; p1 <= 4; ++p1) {
    for (long p2 = (lat.dim() > 1 ? -4 : 0); p2 <= (lat.dim() > 1 ? 4 : 0); ++p2) {
      const double a = static_cast<double>(j1 + p1 * m1) * h1;
      const double b = static_cast<double>(j2 + p2 * m2) * h2;
      const double rr = std::sqrt(a * a + b * b);
      sum += rr <= d ? k.of_distance(rr) : (rr < c ? b0 * (c - rr) * (c - rr) : 0.0);
    }
  }
  return sum;
}

// Dense (block-)circulant matrix with the reference first row.
Eigen::MatrixXd dense_circulant(const Kernel& k, const Lattice& lat, const EmbeddingChoice& ch) {
  const long m1 = ch.torus[0], m2 = lat.dim() > 1 ? ch.torus[1] : 1;
  const long m = m1 * m2;
  Eigen::MatrixXd c(m, m);
  for (long a = 0; a < m; ++a) {
    for (long b = 0; b < m; ++b) {
      const long j1 = ((b % m1) - (a % m1) + m1) % m1;
      const long j2 = ((b / m1) - (a / m1) + m2) % m2;
      c(a, b) = reference_row(k, lat, ch, j1, j2);
    }
  }
  return c;
}

// Indices of the lattice inside the torus (flattened, first axis fastest).
std::vector<long> lattice_in_torus(const Lattice& lat, const EmbeddingChoice& ch) {
  std::vector<long> idx;
  const long n2 = lat.dim() > 1 ? lat.counts[1] : 1;
  for (long i2 = 0; i2 < n2; ++i2) {
    for (long i1 = 0; i1 < lat.counts[0]; ++i1) idx.push_back(i2 * ch.torus[0] + i1);
  }
  return idx;
}

void expect_matches_dense(const Kernel& k, const Lattice& lat, const EmbeddingChoice& ch) {
  const CirculantEmbedding emb = CirculantEmbedding::build(k, lat, ch);
  const Eigen::MatrixXd c = dense_circulant(k, lat, ch);
  // The first row and the eigenvalues.
  const std::vector<double> row = emb.first_row();
  for (Eigen::Index j = 0; j < c.cols(); ++j)
    EXPECT_NEAR(row[static_cast<std::size_t>(j)], c(0, j), 1e-14);
  Eigen::VectorXd dense_eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(c).eigenvalues();
  std::vector<double> fft_eig = emb.eigenvalues();
  std::sort(fft_eig.begin(), fft_eig.end());
  ASSERT_EQ(static_cast<Eigen::Index>(fft_eig.size()), dense_eig.size());
  const double scale = dense_eig.cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < dense_eig.size(); ++i) {
    EXPECT_NEAR(fft_eig[static_cast<std::size_t>(i)], dense_eig[i], 1e-12 * scale);
  }
  EXPECT_NEAR(emb.attempt().min_eigenvalue, dense_eig.minCoeff(), 1e-12 * scale);
  // Exactness: the circulant restricted to the lattice is the kernel matrix K.
  const auto idx = lattice_in_torus(lat, ch);
  const Eigen::MatrixXd gram = k.gram(test::lattice_points(lat));
  for (std::size_t a = 0; a < idx.size(); ++a) {
    for (std::size_t b = 0; b < idx.size(); ++b) {
      EXPECT_NEAR(c(idx[a], idx[b]),
                  gram(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)), 1e-14);
    }
  }
}

TEST(Circulant, EigenvaluesMatchDenseMinimal1D) {
  const Lattice lat{{7}, {0.15}};
  const auto k = Kernel::exponential(0.3);
  const auto choices = CirculantEmbedding::candidates(k, lat, {});
  ASSERT_EQ(choices.front().kind, EmbeddingKind::Minimal);
  EXPECT_EQ(choices.front().torus, std::vector<long>{12});
  expect_matches_dense(k, lat, choices.front());
}

TEST(Circulant, EigenvaluesMatchDensePaddedOddTorus2D) {
  const Lattice lat{{4, 3}, {0.2, 0.3}};
  expect_matches_dense(Kernel::matern32(0.4), lat, {EmbeddingKind::Padded, {9, 7}, 1.5, 0, 0});
}

TEST(Circulant, EigenvaluesMatchDenseCutOff2D) {
  const Lattice lat{{5, 4}, {0.25, 1.0 / 3.0}};
  const auto k = Kernel::exponential(1.0);
  const auto choices = CirculantEmbedding::candidates(k, lat, {});
  const auto cut = std::find_if(choices.begin(), choices.end(), [](const EmbeddingChoice& c) {
    return c.kind == EmbeddingKind::CutOff;
  });
  ASSERT_NE(cut, choices.end());
  // d is the lattice diameter, c = d + 2ℓ for the exponential (C¹ fit of b₀(c − r)²).
  EXPECT_NEAR(cut->cutoff_inner, std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(cut->cutoff_outer, std::sqrt(2.0) + 2.0, 1e-12);
  // Torus side ≥ span + c on both axes.
  EXPECT_GE(static_cast<double>(cut->torus[0]) * 0.25, 1.0 + cut->cutoff_outer);
  EXPECT_GE(static_cast<double>(cut->torus[1]) / 3.0, 1.0 + cut->cutoff_outer);
  expect_matches_dense(k, lat, *cut);
}

// The known trap: the isotropic 2-D exponential kernel with ℓ = 1 on the unit square does not embed
// minimally, nor with 2x padding; the cut-off embedding is nonnegative definite and is chosen.
TEST(Circulant, ExponentialUnitSquareEllOneEmbedsExactlyByCutOff) {
  const auto k = Kernel::exponential(1.0);
  for (const long n : {33L, 129L}) {
    const Lattice lat{{n, n}, {1.0 / static_cast<double>(n - 1), 1.0 / static_cast<double>(n - 1)}};
    for (const auto& choice : CirculantEmbedding::candidates(k, lat, {})) {
      if (choice.kind == EmbeddingKind::CutOff || choice.padding > 2.0) continue;
      const auto attempt = CirculantEmbedding::build(k, lat, choice).attempt();
      EXPECT_LT(attempt.min_eigenvalue, -1e3 * attempt.tolerance) << attempt.describe();
    }
    std::vector<EmbeddingAttempt> attempts;
    const auto emb = CirculantEmbedding::find(k, lat, {}, &attempts);
    ASSERT_TRUE(emb.has_value());
    EXPECT_EQ(emb->attempt().choice.kind, EmbeddingKind::CutOff) << emb->attempt().describe();
    EXPECT_GE(emb->attempt().min_eigenvalue, 0.0) << emb->attempt().describe();
    // 33: every smaller candidate was tried; 129: they were screened out on a 65x65 copy.
    for (const auto& a : attempts) {
      if (a.choice.kind != EmbeddingKind::CutOff) {
        EXPECT_FALSE(a.nonnegative()) << a.describe();
        EXPECT_EQ(a.skipped_coarse, n > 65) << a.describe();
      }
    }
  }
}

// Screening never loses an embedding: with the cut-off disabled, deferred candidates are tried.
TEST(Circulant, ScreeningNeedsACutOffBehindIt) {
  const Lattice lat{{129, 129}, {1.0 / 128, 1.0 / 128}};
  EmbeddingOptions opt;
  opt.try_cutoff = false;
  opt.paddings = {2.0, 8.0};
  std::vector<EmbeddingAttempt> attempts;
  const auto emb = CirculantEmbedding::find(Kernel::exponential(1.0), lat, opt, &attempts);
  for (const auto& a : attempts) EXPECT_FALSE(a.skipped_coarse);
  ASSERT_TRUE(emb.has_value());
  EXPECT_EQ(emb->attempt().choice.kind, EmbeddingKind::Padded);
  EXPECT_EQ(emb->attempt().choice.padding, 8.0);
}

TEST(Circulant, NoEmbeddingWithinATinyMemoryCap) {
  const Lattice lat{{65, 65}, {1.0 / 64, 1.0 / 64}};
  EmbeddingOptions opt;
  opt.max_bytes = 1e5;
  std::vector<EmbeddingAttempt> attempts;
  EXPECT_FALSE(CirculantEmbedding::find(Kernel::exponential(1.0), lat, opt, &attempts).has_value());
  ASSERT_FALSE(attempts.empty());
  for (const auto& a : attempts) EXPECT_TRUE(a.skipped_memory);
}

TEST(Circulant, RefusesToDrawFromANegativeEmbedding) {
  const Lattice lat{{33, 33}, {1.0 / 32, 1.0 / 32}};
  CirculantEmbedding emb = CirculantEmbedding::build(Kernel::exponential(1.0), lat,
                                                     {EmbeddingKind::Minimal, {64, 64}, 1.0, 0, 0});
  ASSERT_FALSE(emb.nonnegative());
  SeededRng rng(1);
  std::vector<double> out(static_cast<std::size_t>(lat.size()));
  EXPECT_THROW(emb.draw(rng, out.data()), NumericalError);
}

TEST(Circulant, ApplyCovarianceIsKTimesV) {
  const Lattice lat{{6, 5}, {0.2, 0.25}};
  const auto k = Kernel::exponential(1.0);
  auto emb = CirculantEmbedding::find(k, lat);
  ASSERT_TRUE(emb.has_value());
  SeededRng rng(3);
  Eigen::VectorXd v(lat.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = rng.standard_normal();
  Eigen::VectorXd out(lat.size());
  emb->apply_covariance(v.data(), out.data());
  const Eigen::VectorXd expected = k.gram(test::lattice_points(lat)) * v;
  EXPECT_LT((out - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff());
}

void expect_prior_law(const Kernel& k, const Lattice& lat, const EmbeddingChoice& choice,
                      std::uint64_t seed, double scale = 0.0) {
  CirculantEmbedding emb = CirculantEmbedding::build(k, lat, choice);
  ASSERT_TRUE(emb.nonnegative()) << emb.attempt().describe();
  SeededRng rng(seed);
  Eigen::MatrixXd draws(lat.size(), kDraws);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(lat.size());
  for (int l = 0; l < kDraws; ++l) {
    if (scale == 0.0) {
      emb.draw(rng, draws.col(l).data());
    } else {
      emb.apply_covariance_plus_draw(zero.data(), scale, rng, draws.col(l).data());
    }
  }
  const double s = scale == 0.0 ? 1.0 : scale;
  const Eigen::MatrixXd cov = s * s * k.gram(test::lattice_points(lat));
  const auto fit = test::check_gaussian(draws, zero, cov);
  EXPECT_GT(fit.chi2_p, kAlpha) << emb.attempt().describe();
  EXPECT_GT(fit.ks_min_p, kAlpha) << emb.attempt().describe();
  EXPECT_LT(test::whitened_covariance_deviation(draws, cov), 5.5) << emb.attempt().describe();
}

TEST(Circulant, PriorDrawsHaveCovarianceK1D) {
  const Lattice lat{{8}, {1.0 / 7}};
  const auto k = Kernel::exponential(0.5);
  expect_prior_law(k, lat, CirculantEmbedding::candidates(k, lat, {}).front(), 11);
}

TEST(Circulant, PriorDrawsHaveCovarianceKCutOff2D) {
  const Lattice lat{{4, 3}, {1.0 / 3, 0.5}};
  const auto k = Kernel::exponential(1.0);
  const auto choices = CirculantEmbedding::candidates(k, lat, {});
  const auto cut = std::find_if(choices.begin(), choices.end(), [](const EmbeddingChoice& c) {
    return c.kind == EmbeddingKind::CutOff;
  });
  ASSERT_NE(cut, choices.end());
  expect_prior_law(k, lat, *cut, 12);
}

TEST(Circulant, PriorDrawsOnOddTorusAndScaledDraws) {
  // Odd torus sizes exercise the Hermitian bookkeeping without self-conjugate Nyquist planes.
  const Lattice lat{{4, 3}, {0.2, 0.3}};
  expect_prior_law(Kernel::matern52(0.3), lat, {EmbeddingKind::Padded, {9, 7}, 1.5, 0, 0}, 13);
  expect_prior_law(Kernel::matern52(0.3), lat, {EmbeddingKind::Padded, {10, 8}, 1.5, 0, 0}, 14,
                   0.7);
}

// Power of the statistical checks: a draw from a wrong covariance (ℓ off by 10 %) is rejected.
TEST(Circulant, StatisticalCheckRejectsAWrongCovariance) {
  const Lattice lat{{8}, {1.0 / 7}};
  const auto k = Kernel::exponential(0.5);
  CirculantEmbedding emb = CirculantEmbedding::build(
      Kernel::exponential(0.55), lat, CirculantEmbedding::candidates(k, lat, {}).front());
  ASSERT_TRUE(emb.nonnegative());
  SeededRng rng(15);
  Eigen::MatrixXd draws(lat.size(), kDraws);
  for (int l = 0; l < kDraws; ++l) emb.draw(rng, draws.col(l).data());
  EXPECT_GT(test::whitened_covariance_deviation(draws, k.gram(test::lattice_points(lat))), 5.5);
}

}  // namespace
}  // namespace gpdp
