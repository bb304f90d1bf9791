// Off-lattice points conditioned on a circulant embedding's torus draw (samplers/torus_sites.hpp):
// the joint prior of (lattice, points) against k itself, the embedding's periodic covariance
// against k, the torus transforms against the circulant written out, and the refusals.
//
// Statistical tests (fixed seeds, so deterministic): 2·10⁴ joint draws; each check rejects when
// the binned χ² p-value of the Mahalanobis distances or the Bonferroni-corrected per-coordinate KS
// p-value is below 1e-4, or when an entry of the whitened sample covariance is more than 6 standard
// errors off (≤ 1.5·10³ entries: false alarm ≤ 3·10⁻⁶). A whitened covariance error of 0.043 is
// detected.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <optional>

#include "gpdp/error.hpp"
#include "gpdp/samplers/torus_sites.hpp"
#include "support/gof.hpp"
#include "support/lattice_points.hpp"

namespace gpdp {
namespace {

constexpr int kDraws = 20000;
constexpr double kAlpha = 1e-4;

// Points strictly inside the lattice's box, at irrational fractions of the steps.
Points off_lattice_points(const Lattice& lattice, int count) {
  Points x(count, lattice.dim());
  for (int i = 0; i < count; ++i) {
    for (int a = 0; a < lattice.dim(); ++a) {
      const double span = static_cast<double>(lattice.counts[a] - 1) * lattice.steps[a];
      const double u = std::fmod(0.1 + (i + 1) * (a == 0 ? 0.6180339887 : 0.4142135623), 1.0);
      x(i, a) = u * span;
    }
  }
  return x;
}

// The first positive definite (invertible) embedding of `lattice`.
CirculantEmbedding invertible_embedding(const Kernel& kernel, const Lattice& lattice) {
  EmbeddingOptions options;
  options.require_positive_definite = true;
  auto embedding = CirculantEmbedding::find(kernel, lattice, options);
  if (!embedding) throw NumericalError("test: no positive definite embedding");
  return std::move(*embedding);
}

// Joint draws (lattice block of z = C^½ ζ, then z(X)) stacked as columns.
Eigen::MatrixXd joint_draws(CirculantEmbedding& embedding, const TorusSites& sites, int draws,
                            std::uint64_t seed) {
  const long m = embedding.torus_size();
  const long lat = embedding.lattice().size();
  SeededRng rng(seed);
  std::vector<double> white(static_cast<std::size_t>(m)), z(static_cast<std::size_t>(lat));
  Eigen::MatrixXd out(lat + sites.size(), draws);
  for (int l = 0; l < draws; ++l) {
    rng.fill_standard_normal(white.data(), white.size());
    embedding.apply_root_plus_draw(white.data(), 0.0, rng, z.data());
    out.col(l).head(lat) = Eigen::Map<const Eigen::VectorXd>(z.data(), lat);
    out.col(l).tail(sites.size()) = sites.draw(white.data(), rng);
  }
  return out;
}

void expect_joint_prior(const Kernel& kernel, const Lattice& lattice, const Points& x,
                        std::uint64_t seed, const std::string& kind) {
  CirculantEmbedding embedding = invertible_embedding(kernel, lattice);
  EXPECT_EQ(to_string(embedding.attempt().choice.kind), kind) << embedding.attempt().describe();
  const TorusSites sites(embedding, x, kernel, 2);
  ASSERT_EQ(sites.unavailable_reason(), "");
  const Eigen::MatrixXd draws = joint_draws(embedding, sites, kDraws, seed);
  Points all(lattice.size() + x.rows(), lattice.dim());
  all << test::lattice_points(lattice), x;
  const Eigen::MatrixXd cov = kernel.gram(all);  // the prior on lattice ∪ X, straight from k
  const auto fit = test::check_gaussian(draws, Eigen::VectorXd::Zero(all.rows()), cov);
  EXPECT_EQ(fit.rank, all.rows());
  EXPECT_GT(fit.chi2_p, kAlpha) << sites.describe();
  EXPECT_GT(fit.ks_min_p, kAlpha) << sites.describe();
  EXPECT_LT(test::whitened_covariance_deviation(draws, cov), 6.0) << sites.describe();
}

TEST(TorusSites, JointPriorLaw2DCutOff) {
  // Exponential ℓ = 1 on a 7 x 6 lattice of step 0.2: the cut-off embedding.
  const Lattice lattice{{7, 6}, {0.2, 0.2}};
  expect_joint_prior(Kernel::exponential(1.0), lattice, off_lattice_points(lattice, 12), 31,
                     "cut-off");
}

TEST(TorusSites, JointPriorLaw2DMinimalMatern) {
  const Lattice lattice{{8, 5}, {0.15, 0.25}};
  expect_joint_prior(Kernel::matern32(0.2), lattice, off_lattice_points(lattice, 10), 32,
                     "minimal");
}

TEST(TorusSites, JointPriorLaw1D) {
  const Lattice lattice{{12}, {0.1}};
  expect_joint_prior(Kernel::exponential(0.4), lattice, off_lattice_points(lattice, 8), 33,
                     "minimal");
}

TEST(TorusSites, PeriodicCovarianceIsTheKernelOnLatticeLags) {
  // Condition (2): c̃ equals k at every lag between a point of the lattice's box and a node; the
  // batch periodic_covariances agrees with the scalar function.
  const Kernel kernel = Kernel::exponential(1.0);
  const Lattice lattice{{9, 7}, {0.2, 0.3}};
  for (const bool cutoff : {false, true}) {
    EmbeddingOptions options;
    options.paddings = {};
    options.try_cutoff = cutoff;
    const auto choices = CirculantEmbedding::candidates(kernel, lattice, options);
    const CirculantEmbedding e = CirculantEmbedding::build(kernel, lattice, choices.back());
    EXPECT_EQ(e.attempt().choice.kind, cutoff ? EmbeddingKind::CutOff : EmbeddingKind::Minimal);
    const Points x = off_lattice_points(lattice, 5);
    const Points nodes = test::lattice_points(lattice);
    const long m1 = e.torus()[0];
    std::vector<double> row(static_cast<std::size_t>(e.torus_size()));
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
      e.periodic_covariances(x(i, 0), x(i, 1), row.data());
      for (long t = 0; t < e.torus_size(); ++t) {
        const double scalar = e.periodic_covariance(x(i, 0) - static_cast<double>(t % m1) * 0.2,
                                                    x(i, 1) - static_cast<double>(t / m1) * 0.3);
        EXPECT_NEAR(row[static_cast<std::size_t>(t)], scalar, 1e-14);
      }
      for (Eigen::Index g = 0; g < nodes.rows(); ++g) {
        const long t = std::lround(nodes(g, 0) / 0.2) + m1 * std::lround(nodes(g, 1) / 0.3);
        EXPECT_NEAR(row[static_cast<std::size_t>(t)],
                    kernel.of_distance((x.row(i) - nodes.row(g)).norm()), 1e-14);
      }
    }
  }
}

TEST(TorusSites, TorusPowersAgainstTheCirculantWrittenOut) {
  // C^½ C^½ x = C x with C the circulant of the first row, summed explicitly; C^½ C^{-½} x = x.
  const Kernel kernel = Kernel::exponential(0.5);
  const Lattice lattice{{6, 5}, {0.2, 0.2}};
  auto e = std::optional<CirculantEmbedding>(invertible_embedding(kernel, lattice));
  const long m1 = e->torus()[0], m2 = e->torus()[1], m = e->torus_size();
  const std::vector<double> c = e->first_row();
  SeededRng rng(5);
  std::vector<double> x(static_cast<std::size_t>(m)), half(x.size()), full(x.size()),
      back(x.size());
  rng.fill_standard_normal(x.data(), x.size());
  CirculantEmbedding::TorusWork work(*e);
  e->torus_power(0.5, x.data(), half.data(), work);
  e->torus_power(0.5, half.data(), full.data(), work);
  e->torus_power(-0.5, half.data(), back.data(), work);
  for (long i2 = 0; i2 < m2; ++i2) {
    for (long i1 = 0; i1 < m1; ++i1) {
      double cx = 0.0;
      for (long j2 = 0; j2 < m2; ++j2) {
        for (long j1 = 0; j1 < m1; ++j1) {
          const long d = ((i1 - j1 + m1) % m1) + m1 * ((i2 - j2 + m2) % m2);
          cx += c[static_cast<std::size_t>(d)] * x[static_cast<std::size_t>(j1 + m1 * j2)];
        }
      }
      const auto k = static_cast<std::size_t>(i1 + m1 * i2);
      EXPECT_NEAR(full[k], cx, 1e-12);
      EXPECT_NEAR(back[k], x[k], 1e-12);
    }
  }
}

TEST(TorusSites, APointOnANodeGetsTheNodesValue) {
  // A point that is a lattice node has S = 0 in its row: its value is the lattice draw's.
  const Kernel kernel = Kernel::exponential(0.7);
  const Lattice lattice{{6, 6}, {0.2, 0.2}};
  auto e = std::optional<CirculantEmbedding>(invertible_embedding(kernel, lattice));
  Points x(2, 2);
  x << 0.4, 0.6, 0.33, 0.71;  // node (2, 3), and a point between nodes
  const TorusSites sites(*e, x, kernel, 1);
  ASSERT_EQ(sites.unavailable_reason(), "");
  const Eigen::MatrixXd d = joint_draws(*e, sites, 50, 7);
  const long node = 2 + 6 * 3;
  for (Eigen::Index l = 0; l < d.cols(); ++l) {
    EXPECT_NEAR(d(36, l), d(node, l), 1e-7);
    EXPECT_GT(std::abs(d(37, l) - d(node, l)), 1e-7);
  }
}

TEST(TorusSites, Refusals) {
  const Kernel kernel = Kernel::exponential(0.5);
  const Lattice lattice{{5, 5}, {0.25, 0.25}};
  auto e = std::optional<CirculantEmbedding>(invertible_embedding(kernel, lattice));
  Points outside(1, 2);
  outside << 0.5, 1.2;  // beyond the lattice's box on axis 2
  EXPECT_THROW((TorusSites{*e, outside, kernel}), InputError);
  Points wrong_dim(1, 1);
  wrong_dim << 0.5;
  EXPECT_THROW((TorusSites{*e, wrong_dim, kernel}), InputError);
  // The squared exponential's eigenvalues scatter around 0 at rounding level: not invertible.
  const Kernel se = Kernel::squared_exponential(1.0);
  const CirculantEmbedding singular = CirculantEmbedding::build(
      se, lattice, CirculantEmbedding::candidates(se, lattice, {}).front());
  EXPECT_FALSE(singular.positive_definite());
  Points inside(1, 2);
  inside << 0.3, 0.3;
  EXPECT_THROW((TorusSites{singular, inside, se}), InputError);
}

}  // namespace
}  // namespace gpdp
