#include "audit_codec.hpp"

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::auditor {

PairCodec::PairCodec(const privacy::GpMechanism& m, const Box& box, int extra_test,
                     bool same_covariate)
    : m_(m),
      box_(box),
      d_(m.dim),
      n_(m.n),
      extra_(extra_test),
      same_(same_covariate),
      rkhs_(m.lemma == privacy::SensitivityLemma::B8) {}

int PairCodec::size() const {
  const int core = static_cast<int>(n_ - 1);
  int p = core * d_ + (rkhs_ ? 0 : core);  // core covariates (+ responses)
  p += d_ + (same_ ? 0 : d_);              // x, x'
  p += rkhs_ ? 0 : 2;                      // y, y'
  p += extra_ * d_;
  if (rkhs_) p += kCentres * (d_ + 1);  // f* = Σ c_j k(·, z_j)
  return p;
}

NeighbourPair PairCodec::decode(const std::vector<double>& u) const {
  std::size_t at = 0;
  auto point = [&](Points& P, Eigen::Index row) {
    for (int j = 0; j < d_; ++j) {
      double t = u[at++];
      // The diagonal kernel only "sees" exactly repeated points: search a 3-level lattice.
      if (m_.kernel->family() == KernelFamily::Diagonal) t = std::round(2.0 * t) / 2.0;
      P(row, j) = box_.lower()[j] + t * (box_.upper()[j] - box_.lower()[j]);
    }
  };
  auto response = [&] { return m_.M_Y * (2.0 * u[at++] - 1.0); };
  const auto n = static_cast<Eigen::Index>(n_);
  NeighbourPair p;
  p.X.resize(n, d_);
  p.y.resize(n);
  for (Eigen::Index i = 0; i + 1 < n; ++i) {
    point(p.X, i);
    if (!rkhs_) p.y[i] = response();
  }
  p.Xp = p.X;
  p.yp = p.y;
  point(p.X, n - 1);
  if (same_) {
    p.Xp.row(n - 1) = p.X.row(n - 1);
  } else {
    point(p.Xp, n - 1);
  }
  if (!rkhs_) {
    p.y[n - 1] = response();
    p.yp[n - 1] = response();
  }
  const Eigen::Index t = (same_ ? 1 : 2) + extra_;
  p.test.resize(t, d_);
  p.test.row(0) = p.X.row(n - 1);
  if (!same_) p.test.row(1) = p.Xp.row(n - 1);
  for (Eigen::Index i = same_ ? 1 : 2; i < t; ++i) point(p.test, i);
  if (rkhs_) {
    Points z(kCentres, d_);
    Eigen::VectorXd c(kCentres);
    for (int j = 0; j < kCentres; ++j) point(z, j);
    for (int j = 0; j < kCentres; ++j) c[j] = 2.0 * u[at++] - 1.0;
    const double norm2 = c.dot(m_.kernel->gram(z) * c);
    c *= norm2 > 0 ? m_.rkhs_norm / std::sqrt(norm2) : 0.0;  // ‖f*‖_H = B exactly
    p.y = m_.kernel->cross(p.X, z) * c;
    p.yp = m_.kernel->cross(p.Xp, z) * c;
  }
  return p;
}

std::vector<double> PairCodec::encode(const NeighbourPair& pair) const {
  require(!rkhs_, "audit: structured starts need the bounded-response model (not Lemma B.8)");
  const auto n = static_cast<Eigen::Index>(n_);
  require(pair.X.rows() == n && pair.X.cols() == d_ && pair.test.rows() == (same_ ? 1 : 2) + extra_,
          "audit: a start does not match the search space");
  std::vector<double> u;
  u.reserve(static_cast<std::size_t>(size()));
  auto point = [&](const Eigen::RowVectorXd& x) {
    for (int j = 0; j < d_; ++j) {
      const double w = box_.upper()[j] - box_.lower()[j];
      u.push_back(std::clamp((x[j] - box_.lower()[j]) / w, 0.0, 1.0));
    }
  };
  auto response = [&](double y) { u.push_back(std::clamp(0.5 * (y / m_.M_Y + 1.0), 0.0, 1.0)); };
  for (Eigen::Index i = 0; i + 1 < n; ++i) {
    point(pair.X.row(i));
    response(pair.y[i]);
  }
  point(pair.X.row(n - 1));
  if (!same_) point(pair.Xp.row(n - 1));
  response(pair.y[n - 1]);
  response(pair.yp[n - 1]);
  for (Eigen::Index i = same_ ? 1 : 2; i < pair.test.rows(); ++i) point(pair.test.row(i));
  return u;
}

std::vector<double> PairCodec::pull_back(const PairGradient& g) const {
  require(!rkhs_, "audit: the gradient search needs the bounded-response model (not Lemma B.8)");
  const auto n = static_cast<Eigen::Index>(n_);
  std::vector<double> du;
  du.reserve(static_cast<std::size_t>(size()));
  auto point = [&](const Eigen::RowVectorXd& gx) {
    for (int j = 0; j < d_; ++j) du.push_back(gx[j] * (box_.upper()[j] - box_.lower()[j]));
  };
  auto response = [&](double gy) { du.push_back(gy * 2.0 * m_.M_Y); };
  for (Eigen::Index i = 0; i + 1 < n; ++i) {
    point(g.X.row(i) + g.Xp.row(i));
    response(g.y[i] + g.yp[i]);
  }
  if (same_) {
    point(g.X.row(n - 1) + g.Xp.row(n - 1) + g.test.row(0));
  } else {
    point(g.X.row(n - 1) + g.test.row(0));
    point(g.Xp.row(n - 1) + g.test.row(1));
  }
  response(g.y[n - 1]);
  response(g.yp[n - 1]);
  for (Eigen::Index i = same_ ? 1 : 2; i < g.test.rows(); ++i) point(g.test.row(i));
  return du;
}

}  // namespace gpdp::auditor
