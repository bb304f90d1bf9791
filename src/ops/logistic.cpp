#include "gpdp/ops/logistic.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::ops {

double log1p_exp(double t) {
  return t > 0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t));
}

double logistic_sigmoid(double t) {
  if (t >= 0) return 1.0 / (1.0 + std::exp(-t));
  const double e = std::exp(t);
  return e / (1.0 + e);
}

LogisticModel::LogisticModel(Eigen::MatrixXd x, Eigen::VectorXd y, double radius)
    : z_(std::move(x)), radius_(radius) {
  require(radius > 0 && std::isfinite(radius),
          fmt::format("logistic model: radius R must be > 0, got {}", radius));
  require(y.size() == z_.rows(),
          fmt::format("logistic model: {} labels for {} rows", y.size(), z_.rows()));
  require(z_.rows() > 0 && z_.cols() > 0, "logistic model: empty design matrix");
  for (Eigen::Index i = 0; i < z_.rows(); ++i) {
    require(y(i) == 1.0 || y(i) == -1.0,
            fmt::format("logistic model: label of row {} is {}, expected -1 or +1", i + 1, y(i)));
    const double norm = z_.row(i).norm();
    require(
        norm <= 1.0 + 1e-9,
        fmt::format("logistic model: row {} has ||x|| = {} > 1 (scale rows first)", i + 1, norm));
    z_.row(i) *= y(i);
  }
  const auto nonzeros = (z_.array() != 0.0).count();
  sparse_ = 4 * nonzeros <= z_.size();
  if (sparse_) {
    zs_ = z_.sparseView(1.0, 0.0);  // keeps every non-zero (reference 1, epsilon 0)
    zs_.makeCompressed();
  } else {
    zt_ = z_.transpose();
  }
}

// Spec §2.7: |ℓ| ≤ log(1 + e^R) for ‖z‖ ≤ 1, ‖θ‖ ≤ R.
double LogisticModel::log_likelihood_bound() const { return log1p_exp(radius_); }

double LogisticModel::record_log_likelihood(Eigen::Index i, const Eigen::VectorXd& theta) const {
  return -log1p_exp(-z_.row(i).dot(theta));
}

namespace {

// The two per-record quantities of ℓ = −log(1 + e^{a}) at a = −θᵀz from one exponential
// e = exp(−|a|): log(1 + e^{a}) = max(a, 0) + log1p(e) and σ(a) = 1/(1 + e) or e/(1 + e)
// (the same formulas as log1p_exp and logistic_sigmoid above).
struct RecordTerms {
  double log1p_exp;  // filled only when asked
  double sigmoid;    // σ(−θᵀz) = weight of z in ∇ℓ
};

inline RecordTerms record_terms(double margin, bool want_value) {
  const double a = -margin;
  const double e = std::exp(-std::abs(a));
  RecordTerms r{0.0, a >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e)};
  if (want_value) r.log1p_exp = (a > 0 ? a : 0.0) + std::log1p(e);
  return r;
}

}  // namespace

double LogisticModel::evaluate(const Eigen::VectorXd& theta, bool want_value,
                               Eigen::VectorXd* grad) const {
  double total = 0.0;
  Eigen::VectorXd g = Eigen::VectorXd::Zero(dim());
  if (sparse_) {
    const int* outer = zs_.outerIndexPtr();
    const int* inner = zs_.innerIndexPtr();
    const double* value = zs_.valuePtr();
    const double* th = theta.data();
    double* gp = g.data();
    for (Eigen::Index i = 0; i < zs_.rows(); ++i) {
      double margin = 0.0;
      for (int k = outer[i]; k < outer[i + 1]; ++k) margin += value[k] * th[inner[k]];
      const RecordTerms t = record_terms(margin, want_value);
      total -= t.log1p_exp;
      for (int k = outer[i]; k < outer[i + 1]; ++k) gp[inner[k]] += t.sigmoid * value[k];
    }
  } else {
    for (Eigen::Index i = 0; i < zt_.cols(); ++i) {
      const auto zi = zt_.col(i);
      const RecordTerms t = record_terms(zi.dot(theta), want_value);
      total -= t.log1p_exp;
      g.noalias() += t.sigmoid * zi;
    }
  }
  if (grad != nullptr) *grad = std::move(g);
  return total;
}

double LogisticModel::log_likelihood(const Eigen::VectorXd& theta, Eigen::VectorXd* grad) const {
  return evaluate(theta, true, grad);
}

Eigen::VectorXd LogisticModel::log_likelihood_gradient(const Eigen::VectorXd& theta) const {
  Eigen::VectorXd g;
  evaluate(theta, false, &g);
  return g;
}

Eigen::VectorXd LogisticModel::batch_gradient(const Eigen::VectorXd& theta,
                                              std::span<const Eigen::Index> batch) const {
  Eigen::VectorXd g = Eigen::VectorXd::Zero(dim());
  for (const Eigen::Index i : batch) {
    if (sparse_) {
      const auto zi = zs_.row(i);
      g += record_terms(zi.dot(theta), false).sigmoid * zi.transpose();
    } else {
      const auto zi = zt_.col(i);
      g.noalias() += record_terms(zi.dot(theta), false).sigmoid * zi;
    }
  }
  return g;
}

Eigen::MatrixXd LogisticModel::log_likelihood_hessian(const Eigen::VectorXd& theta) const {
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(dim(), dim());
  if (sparse_) {  // Σ_i −s(1−s) z_i z_iᵀ over the non-zero pairs of each record (lower triangle)
    const int* outer = zs_.outerIndexPtr();
    const int* inner = zs_.innerIndexPtr();
    const double* value = zs_.valuePtr();
    for (Eigen::Index i = 0; i < zs_.rows(); ++i) {
      double margin = 0.0;
      for (int k = outer[i]; k < outer[i + 1]; ++k) margin += value[k] * theta(inner[k]);
      const double s = logistic_sigmoid(margin);
      const double w = s * (1.0 - s);
      for (int k = outer[i]; k < outer[i + 1]; ++k) {
        for (int l = outer[i]; l < outer[i + 1]; ++l) {
          if (inner[l] <= inner[k]) h(inner[k], inner[l]) -= w * value[k] * value[l];
        }
      }
    }
    return h.selfadjointView<Eigen::Lower>();
  }
  const Eigen::VectorXd margin = z_ * theta;
  Eigen::VectorXd w(margin.size());
  for (Eigen::Index i = 0; i < margin.size(); ++i) {
    const double s = logistic_sigmoid(margin(i));
    w(i) = std::sqrt(s * (1.0 - s));
  }
  const Eigen::MatrixXd wz = w.asDiagonal() * z_;
  h.selfadjointView<Eigen::Lower>().rankUpdate(wz.transpose(), -1.0);
  return h.selfadjointView<Eigen::Lower>();
}

}  // namespace gpdp::ops
