#include "gpdp/auditor/gaussian_divergence.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::auditor {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Orthonormal basis of the range of a symmetric PSD matrix (eigenvalues above tol·λ_max).
Eigen::MatrixXd range_basis(const Eigen::MatrixXd& S, double rank_tol, double scale) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(S);
  const auto& ev = es.eigenvalues();
  int rank = 0;
  for (Eigen::Index i = 0; i < ev.size(); ++i) rank += ev[i] > rank_tol * scale;
  return es.eigenvectors().rightCols(rank);
}

// log Φ(x), accurate in the lower tail.
double log_normal_cdf(double x) { return std::log(0.5 * std::erfc(-x / std::sqrt(2.0))); }

}  // namespace

double gaussian_renyi_divergence(double alpha, const Eigen::VectorXd& mu1,
                                 const Eigen::MatrixXd& S1, const Eigen::VectorXd& mu2,
                                 const Eigen::MatrixXd& S2, double rank_tol) {
  require(alpha > 1 && std::isfinite(alpha), fmt::format("Rényi order must be > 1, got {}", alpha));
  const Eigen::Index m = mu1.size();
  require(mu2.size() == m && S1.rows() == m && S1.cols() == m && S2.rows() == m && S2.cols() == m,
          "gaussian_renyi_divergence: dimensions differ");
  const Eigen::MatrixXd A0 = 0.5 * (S1 + S1.transpose());
  const Eigen::MatrixXd B0 = 0.5 * (S2 + S2.transpose());
  const double scale = std::max({A0.cwiseAbs().maxCoeff(), B0.cwiseAbs().maxCoeff(), 1e-300});
  const Eigen::MatrixXd P = range_basis(A0, rank_tol, scale);
  const Eigen::MatrixXd Q = range_basis(B0, rank_tol, scale);
  if (P.cols() != Q.cols()) return kInf;  // different supports
  const Eigen::VectorXd delta = mu1 - mu2;
  if (P.cols() == 0) return delta.norm() == 0 ? 0.0 : kInf;
  // Same support: the projector of one basis reproduces the other.
  if ((Q - P * (P.transpose() * Q)).cwiseAbs().maxCoeff() > 1e-6) return kInf;
  const Eigen::VectorXd d = P.transpose() * delta;
  if ((delta - P * d).norm() > 1e-8 * std::max(delta.norm(), 1e-300) + 1e-12 * std::sqrt(scale)) {
    return kInf;
  }
  const Eigen::MatrixXd A = P.transpose() * A0 * P;
  const Eigen::MatrixXd B = P.transpose() * B0 * P;
  const Eigen::LLT<Eigen::MatrixXd> L(A);
  if (L.info() != Eigen::Success) return kInf;
  const Eigen::MatrixXd Linv_B = L.matrixL().solve(B);
  const Eigen::MatrixXd M = L.matrixL().solve(Linv_B.transpose());  // L⁻¹ B L⁻ᵀ
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (M + M.transpose()));
  const Eigen::VectorXd w = es.eigenvectors().transpose() * L.matrixL().solve(d);
  double mean_term = 0.0, log_det = 0.0;
  for (Eigen::Index i = 0; i < w.size(); ++i) {
    const double mu = es.eigenvalues()[i];
    const double s = alpha * mu + (1.0 - alpha);
    if (!(mu > 0) || !(s > 0)) return kInf;
    mean_term += w[i] * w[i] / s;
    log_det += std::log(s) - alpha * std::log(mu);
  }
  return 0.5 * alpha * mean_term - log_det / (2.0 * (alpha - 1.0));
}

bool well_conditioned(const Eigen::MatrixXd& S) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(0.5 * (S + S.transpose()),
                                                    Eigen::EigenvaluesOnly);
  const double top = es.eigenvalues().cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < es.eigenvalues().size(); ++i) {
    const double v = std::abs(es.eigenvalues()[i]);
    if (v > 1e-12 * top && v <= 1e-7 * top) return false;
  }
  return true;
}

double mahalanobis_distance(const Eigen::VectorXd& delta, const Eigen::MatrixXd& S,
                            double rank_tol) {
  const Eigen::MatrixXd A0 = 0.5 * (S + S.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(A0);
  const double scale = std::max(es.eigenvalues().cwiseAbs().maxCoeff(), 1e-300);
  double q = 0.0;
  Eigen::VectorXd rest = delta;
  for (Eigen::Index i = 0; i < delta.size(); ++i) {
    const double lambda = es.eigenvalues()[i];
    if (lambda <= rank_tol * scale) continue;
    const double c = es.eigenvectors().col(i).dot(delta);
    rest -= c * es.eigenvectors().col(i);
    q += c * c / lambda;
  }
  if (rest.norm() > 1e-8 * std::max(delta.norm(), 1e-300)) return kInf;
  return std::sqrt(q);
}

// Balle & Wang 2018, Theorem 8.
double analytic_gaussian_delta(double distance, double epsilon) {
  require(distance >= 0 && epsilon >= 0, "analytic Gaussian: distance and ε must be ≥ 0");
  if (distance == 0) return 0.0;
  if (std::isinf(distance)) return 1.0;
  const double a = distance / 2.0 - epsilon / distance;
  const double b = -distance / 2.0 - epsilon / distance;
  const double first = 0.5 * std::erfc(-a / std::sqrt(2.0));
  const double second = std::exp(epsilon + log_normal_cdf(b));
  return std::max(0.0, first - second);
}

double analytic_gaussian_epsilon(double distance, double delta) {
  require(delta > 0 && delta < 1, "analytic Gaussian: δ must lie in (0, 1)");
  if (analytic_gaussian_delta(distance, 0.0) <= delta) return 0.0;
  double lo = 0.0, hi = 1.0;
  while (analytic_gaussian_delta(distance, hi) > delta) hi *= 2.0;
  while (hi - lo > 1e-12 * hi) {
    const double mid = 0.5 * (lo + hi);
    (analytic_gaussian_delta(distance, mid) > delta ? lo : hi) = mid;
  }
  return lo;  // the smaller end: the value is used as a LOWER bound on a mechanism's ε
}

}  // namespace gpdp::auditor
