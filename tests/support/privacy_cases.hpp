#pragma once
// Random concrete neighbour pairs for the privacy soundness property tests (fast and slow suites).
#include <cmath>
#include <vector>

#include "gpdp/auditor/audit.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::test {

struct PrivacyCase {
  privacy::GpMechanism mechanism;  // kernel, n, r, σ, η, M_Y, lemma (V_n = V̄_n on the unit box)
  auditor::NeighbourPair pair;
  bool same_covariates = false;
};

inline double log_uniform(Rng& rng, double lo, double hi) {
  return lo * std::exp(std::log(hi / lo) * rng.uniform01());
}

// One random case: a (kernel, lemma) setting the lemma covers, small n, replace-one neighbours with
// responses often at ±M_Y (or y = f*(x), ‖f*‖_H = B for Lemma B.8), and a test set holding the
// differing points, sometimes core points, and random points.
inline PrivacyCase random_privacy_case(Rng& rng, int max_n = 5) {
  using privacy::SensitivityLemma;
  PrivacyCase c;
  auto& m = c.mechanism;
  const int setting = static_cast<int>(rng.uniform01() * 9);
  const double ell = log_uniform(rng, 0.1, 2.0);
  m.dim = 1;
  switch (setting) {
    case 0:
      m.kernel = Kernel::exponential(ell);
      m.lemma = SensitivityLemma::B7;
      break;
    case 1:
      m.kernel = Kernel::exponential(ell);
      m.dim = 2;
      m.lemma = SensitivityLemma::B1;
      break;
    case 2:
      m.kernel = Kernel::squared_exponential(std::max(ell, 0.3));
      m.lemma = SensitivityLemma::B1;
      break;
    case 3:
      m.kernel = Kernel::matern32(ell);
      m.dim = 2;
      m.lemma = SensitivityLemma::B1;
      break;
    case 4:
      m.kernel = Kernel::matern52(std::max(ell, 0.2));
      m.lemma = SensitivityLemma::B8;
      break;
    case 5:
      m.kernel = Kernel::constant();
      m.dim = 2;
      m.lemma = SensitivityLemma::B4;
      break;
    case 6:
      m.kernel = Kernel::diagonal();
      m.dim = 2;
      m.lemma = SensitivityLemma::B5;
      break;
    case 7:
      m.kernel = Kernel::exponential(ell);
      m.lemma = SensitivityLemma::B8;
      break;
    default:
      m.kernel = Kernel::diagonal();
      m.lemma = SensitivityLemma::B1;
      break;
  }
  m.n = 1 + static_cast<long>(rng.uniform01() * max_n);
  m.r = log_uniform(rng, 0.05, 5.0);
  m.sigma = log_uniform(rng, 0.05, 5.0);
  m.eta = rng.uniform01() < 0.5 ? 0.0 : 2.0 * rng.uniform01();
  m.M_Y = 0.5 + 1.5 * rng.uniform01();
  m.rkhs_norm = 0.5 + 3.0 * rng.uniform01();
  const bool lattice = m.kernel->family() == KernelFamily::Diagonal;
  auto coord = [&] { return lattice ? std::round(2.0 * rng.uniform01()) / 2.0 : rng.uniform01(); };
  auto point = [&](Points& P, Eigen::Index i) {
    for (int j = 0; j < m.dim; ++j) P(i, j) = coord();
  };
  auto response = [&] {
    const double u = rng.uniform01();
    if (u < 0.3) return m.M_Y;
    if (u < 0.6) return -m.M_Y;
    return m.M_Y * (2.0 * rng.uniform01() - 1.0);
  };
  const auto n = static_cast<Eigen::Index>(m.n);
  auto& p = c.pair;
  p.X.resize(n, m.dim);
  p.y.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    point(p.X, i);
    p.y[i] = response();
  }
  p.Xp = p.X;
  p.yp = p.y;
  // Test sets of a continuous kernel keep their points ≥ 0.3ℓ apart, so that K(X_T, X_T) is well
  // conditioned and the exact divergence (the oracle) is computed to many digits; exactly repeated
  // points (the lattice kernels, x = x') are structural and handled exactly.
  const double min_sep = lattice || m.kernel->family() == KernelFamily::Constant ? 0.0 : 0.3 * ell;
  auto far_enough = [&](const Points& P, Eigen::Index upto, const Eigen::RowVectorXd& q) {
    for (Eigen::Index i = 0; i < upto; ++i) {
      const double dist = (P.row(i) - q).norm();
      if (dist == 0.0 || dist < min_sep) return false;
    }
    return true;
  };
  c.same_covariates = rng.uniform01() < 0.3;
  if (!c.same_covariates) {
    bool placed = false;
    for (int tries = 0; tries < 100 && !placed; ++tries) {
      point(p.Xp, n - 1);
      placed = (p.Xp.row(n - 1) - p.X.row(n - 1)).norm() >= std::max(min_sep, 1e-300);
    }
    if (!placed) {
      p.Xp.row(n - 1) = p.X.row(n - 1);
      c.same_covariates = true;
    }
  }
  p.yp[n - 1] = response();
  if (m.lemma == SensitivityLemma::B8) {  // y = f*(x), f* = Σ c_j k(·, z_j), ‖f*‖_H = B
    Points z(3, m.dim);
    for (Eigen::Index j = 0; j < 3; ++j) point(z, j);
    Eigen::VectorXd coef =
        Eigen::VectorXd::NullaryExpr(3, [&] { return 2.0 * rng.uniform01() - 1.0; });
    const double norm2 = coef.dot(m.kernel->gram(z) * coef);
    coef *= norm2 > 0 ? m.rkhs_norm / std::sqrt(norm2) : 0.0;
    p.y = m.kernel->cross(p.X, z) * coef;
    p.yp = m.kernel->cross(p.Xp, z) * coef;
  }
  const int extra = static_cast<int>(rng.uniform01() * 4);
  p.test.resize(2 + 1 + extra, m.dim);
  Eigen::Index at = 0;
  p.test.row(at++) = p.X.row(n - 1);
  if (!c.same_covariates) p.test.row(at++) = p.Xp.row(n - 1);
  if (n > 1 && rng.uniform01() < 0.3 && far_enough(p.test, at, p.X.row(0)))
    p.test.row(at++) = p.X.row(0);
  Points candidate(1, m.dim);
  for (int i = 0, tries = 0; i < extra && tries < 100; ++tries) {
    point(candidate, 0);
    if (!far_enough(p.test, at, candidate.row(0))) continue;
    p.test.row(at++) = candidate.row(0);
    ++i;
  }
  p.test.conservativeResize(at, m.dim);
  return c;
}

}  // namespace gpdp::test
