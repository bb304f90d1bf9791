#pragma once
// Goodness-of-fit checks of Gaussian draws against an analytic mean and covariance (header-only,
// used by the sampler tests). Distributions from Boost.Math; the Kolmogorov tail by its series.
#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <vector>

#include "gpdp/kernel.hpp"

namespace gpdp::test {

// P(sqrt(N) D_N > λ) for the Kolmogorov–Smirnov statistic, with Stephens' small-N correction.
inline double ks_pvalue(double d, std::size_t n) {
  const double sn = std::sqrt(static_cast<double>(n));
  const double lambda = (sn + 0.12 + 0.11 / sn) * d;
  if (lambda < 0.2) return 1.0;
  double sum = 0.0;
  for (int k = 1; k <= 100; ++k) {
    const double term = std::exp(-2.0 * k * k * lambda * lambda);
    sum += (k % 2 == 1 ? 2.0 : -2.0) * term;
    if (term < 1e-16) break;
  }
  return std::clamp(sum, 0.0, 1.0);
}

// One-sample KS test of `x` against N(mean, sd²); returns the p-value.
inline double ks_normal_pvalue(std::vector<double> x, double mean, double sd) {
  std::sort(x.begin(), x.end());
  const boost::math::normal_distribution<double> dist(mean, sd);
  const double n = static_cast<double>(x.size());
  double d = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = boost::math::cdf(dist, x[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return ks_pvalue(d, x.size());
}

// Pearson chi-square test that `d2` are χ²_dof distributed, with `bins` equiprobable bins.
inline double chi2_binned_pvalue(const std::vector<double>& d2, double dof, int bins = 20) {
  const boost::math::chi_squared_distribution<double> dist(dof);
  std::vector<double> edges;
  for (int b = 1; b < bins; ++b) edges.push_back(boost::math::quantile(dist, double(b) / bins));
  std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
  for (const double v : d2) {
    counts[static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), v) -
                                    edges.begin())] += 1;
  }
  const double expected = static_cast<double>(d2.size()) / bins;
  double stat = 0.0;
  for (const double c : counts) stat += (c - expected) * (c - expected) / expected;
  return boost::math::cdf(
      boost::math::complement(boost::math::chi_squared_distribution<double>(bins - 1), stat));
}

struct GaussianFit {
  double chi2_p;         // Mahalanobis distances (pseudo-inverse on the support) vs χ²_rank
  double ks_min_p;       // smallest per-coordinate KS p-value, Bonferroni-corrected (× m)
  Eigen::Index rank;     // dimension of the support of the analytic covariance
  double null_residual;  // largest |component| of a draw outside the support (should be ~0)
  double max_degenerate_error;  // largest |draw − mean| at coordinates of zero variance
};

// values: m x N draws (one per column). The support of `cov` is the span of its eigenvectors with
// eigenvalue > rel_tol · λ_max.
inline GaussianFit check_gaussian(const Eigen::MatrixXd& values, const Eigen::VectorXd& mean,
                                  const Eigen::MatrixXd& cov, double rel_tol = 1e-9) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (cov + cov.transpose()));
  const double lmax = eig.eigenvalues().maxCoeff();
  std::vector<Eigen::Index> support, null;
  for (Eigen::Index i = 0; i < cov.rows(); ++i) {
    (eig.eigenvalues()[i] > rel_tol * lmax ? support : null).push_back(i);
  }
  GaussianFit fit{1.0, 1.0, static_cast<Eigen::Index>(support.size()), 0.0, 0.0};
  const Eigen::MatrixXd centred = values.colwise() - mean;
  const Eigen::MatrixXd proj = eig.eigenvectors().transpose() * centred;  // m x N
  std::vector<double> d2(static_cast<std::size_t>(values.cols()), 0.0);
  for (Eigen::Index l = 0; l < values.cols(); ++l) {
    for (const Eigen::Index i : support) {
      d2[static_cast<std::size_t>(l)] += proj(i, l) * proj(i, l) / eig.eigenvalues()[i];
    }
    for (const Eigen::Index i : null) {
      fit.null_residual = std::max(fit.null_residual, std::abs(proj(i, l)));
    }
  }
  fit.chi2_p = chi2_binned_pvalue(d2, static_cast<double>(support.size()));
  double min_p = 1.0;
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    const double var = cov(i, i);
    if (var <= rel_tol * lmax) {
      fit.max_degenerate_error =
          std::max(fit.max_degenerate_error, centred.row(i).cwiseAbs().maxCoeff());
      continue;
    }
    std::vector<double> x(static_cast<std::size_t>(values.cols()));
    for (Eigen::Index l = 0; l < values.cols(); ++l) x[static_cast<std::size_t>(l)] = values(i, l);
    min_p = std::min(min_p, ks_normal_pvalue(x, mean[i], std::sqrt(var)));
  }
  fit.ks_min_p = std::min(1.0, min_p * static_cast<double>(values.rows()));
  return fit;
}

// Largest |whitened sample covariance − I| in units of its standard error (1/√N off the diagonal,
// √(2/N) on it), for centred draws (one per column) and their covariance.
inline double whitened_covariance_deviation(const Eigen::MatrixXd& centred,
                                            const Eigen::MatrixXd& cov) {
  const Eigen::MatrixXd u = Eigen::LLT<Eigen::MatrixXd>(cov).matrixL().solve(centred);
  const double n = static_cast<double>(centred.cols());
  const Eigen::MatrixXd s = u * u.transpose() / n;
  double worst = 0.0;
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    for (Eigen::Index j = 0; j <= i; ++j) {
      const double se = i == j ? std::sqrt(2.0 / n) : std::sqrt(1.0 / n);
      worst = std::max(worst, std::abs(s(i, j) - (i == j ? 1.0 : 0.0)) / se);
    }
  }
  return worst;
}

// The analytic law of f_D + g on xs straight from docs/mathematics.md §1 (explicit inverse; small n
// only): mean k_X(xs)ᵀ (K + r²I)⁻¹ y, covariance σ² (k(xs,xs) − k_X(xs)ᵀ (K + r²I)⁻¹ k_X(xs)) + η²
// k(xs,xs).
struct AnalyticLaw {
  Eigen::VectorXd mean;
  Eigen::MatrixXd cov;
};
inline AnalyticLaw analytic_law(const Kernel& k, const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                double r, double sigma, double eta, const Eigen::MatrixXd& xs) {
  const Eigen::MatrixXd kreg = k.gram(X) + r * r * Eigen::MatrixXd::Identity(X.rows(), X.rows());
  const Eigen::MatrixXd inv = kreg.inverse();
  const Eigen::MatrixXd ks = k.cross(xs, X);
  AnalyticLaw law;
  law.mean = ks * (inv * y);
  law.cov = sigma * sigma * (k.gram(xs) - ks * inv * ks.transpose()) + eta * eta * k.gram(xs);
  law.cov = 0.5 * (law.cov + law.cov.transpose()).eval();
  return law;
}

}  // namespace gpdp::test
