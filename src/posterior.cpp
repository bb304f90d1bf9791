#include "gpdp/posterior.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>

#include "gpdp/error.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/ornstein_uhlenbeck.hpp"

namespace gpdp {

struct Posterior::Dense {
  std::once_flag once;
  CholeskyFactor factor;
  std::atomic<bool> ready{false};
};

struct Posterior::Weights {
  std::once_flag once;
  Eigen::VectorXd weights;
};

Posterior::Posterior(Kernel kernel, Points X, Eigen::VectorXd y, Hyperparameters theta)
    : Posterior(std::move(kernel), std::move(X), std::move(y), theta, Eigen::VectorXd()) {}

Posterior::Posterior(Kernel kernel, Points X, Eigen::VectorXd y, Hyperparameters theta,
                     Eigen::VectorXd noise_weights)
    : kernel_(std::move(kernel)),
      X_(std::move(X)),
      y_(std::move(y)),
      theta_(theta),
      noise_weights_(std::move(noise_weights)),
      dense_(std::make_shared<Dense>()),
      weights_(std::make_shared<Weights>()) {
  require(std::isfinite(theta_.r) && theta_.r > 0.0,
          fmt::format("regularisation r must be positive and finite, got {}", theta_.r));
  require(std::isfinite(theta_.sigma) && theta_.sigma > 0.0,
          fmt::format("prior scale σ must be positive and finite, got {}", theta_.sigma));
  require(X_.rows() == y_.size(),
          fmt::format("posterior: {} covariate rows but {} responses", X_.rows(), y_.size()));
  require(X_.rows() >= 1, "posterior: needs at least one data point");
  require(X_.allFinite() && y_.allFinite(), "posterior: data contain NaN or Inf");
  require(noise_weights_.size() == 0 || noise_weights_.size() == X_.rows(),
          fmt::format("posterior: {} noise weights for {} observations", noise_weights_.size(),
                      X_.rows()));
  require(noise_weights_.allFinite() && (noise_weights_.array() > 0).all(),
          "posterior: noise weights must be positive and finite");
  if (kernel_.family() == KernelFamily::Exponential && X_.cols() == 1 &&
      noise_weights_.size() == 0) {
    markov_ = std::make_shared<const OrnsteinUhlenbeckPosterior>(X_.col(0), y_,
                                                                 kernel_.lengthscale(), theta_.r);
  }
}

namespace {
// Refuses a dense query of `m` points before it allocates: the factorisation if still pending, the
// query's n x m blocks (`nm` of them) and m x m blocks (`mm` of them).
void check_query_memory(const Posterior& p, const char* what, double m, double nm, double mm) {
  const auto n = static_cast<double>(p.n());
  const double bytes = p.pending_factor_bytes() + static_cast<double>(dense_bytes(n, m, nm)) +
                       static_cast<double>(dense_bytes(m, m, mm));
  require_memory(bytes,
                 fmt::format("posterior {} at m = {:.0f} point(s) with n = {:.0f}", what, m, n),
                 fmt::format("{}{} n x m{} matrices of doubles",
                             p.has_dense_factor() ? "" : "the n x n factorisation, ", nm,
                             mm > 0 ? fmt::format(" and {:.4g} m x m", mm) : ""));
}
}  // namespace

double Posterior::pending_factor_bytes() const {
  if (has_dense_factor()) return 0.0;
  const auto n = static_cast<double>(X_.rows());
  return static_cast<double>(dense_bytes(n, n));
}

const Posterior::Dense& Posterior::dense() const {
  std::call_once(dense_->once, [this] {
    require_memory(pending_factor_bytes(),
                   fmt::format("the posterior's Cholesky factorisation at n = {} data points", n()),
                   "K + r²I, an n x n matrix of doubles factorised in place");
    Eigen::MatrixXd k = kernel_.gram(X_);
    if (noise_weights_.size() > 0) {
      k.diagonal() += theta_.r * theta_.r * noise_weights_;
    } else {
      k.diagonal().array() += theta_.r * theta_.r;
    }
    auto factor = CholeskyFactor::compute(std::move(k));
    if (!factor) {
      throw NumericalError(
          fmt::format("posterior: K + r²I (n = {}, r = {}) is not numerically positive definite",
                      n(), theta_.r));
    }
    dense_->factor = std::move(*factor);
    dense_->ready.store(true, std::memory_order_release);
  });
  return *dense_;
}

const CholeskyFactor& Posterior::factor() const { return dense().factor; }

bool Posterior::has_dense_factor() const { return dense_->ready.load(std::memory_order_acquire); }

void Posterior::check_query(const Points& xs) const {
  require(xs.cols() == dim(),
          fmt::format("query points have {} coordinate(s) but the data have {}", xs.cols(), dim()));
}

const Eigen::VectorXd& Posterior::weights() const {
  if (markov_) return markov_->weights();
  std::call_once(weights_->once, [this] { weights_->weights = dense().factor.solve(y_); });
  return weights_->weights;
}

Posterior Posterior::with_responses(Eigen::VectorXd y) const {
  require(y.size() == n(),
          fmt::format("posterior: {} responses for {} covariate rows", y.size(), n()));
  require(y.allFinite(), "posterior: data contain NaN or Inf");
  Posterior p = *this;
  p.y_ = std::move(y);
  p.weights_ = std::make_shared<Weights>();
  if (markov_) {
    p.markov_ = std::make_shared<const OrnsteinUhlenbeckPosterior>(p.X_.col(0), p.y_,
                                                                   kernel_.lengthscale(), theta_.r);
  }
  return p;
}

Eigen::VectorXd Posterior::mean(const Points& xs) const {
  check_query(xs);
  if (markov_ && xs.cols() == 1) {
    Eigen::VectorXd mu;
    markov_->mean_and_variance(xs.col(0), &mu, nullptr);
    return mu;
  }
  check_query_memory(*this, "mean", static_cast<double>(xs.rows()), 1, 0);
  return kernel_.cross(xs, X_) * weights();
}

Eigen::VectorXd Posterior::variance(const Points& xs) const {
  check_query(xs);
  const double s2 = theta_.sigma * theta_.sigma;
  if (markov_ && xs.cols() == 1) {
    Eigen::VectorXd kd;
    markov_->mean_and_variance(xs.col(0), nullptr, &kd);
    return s2 * kd;
  }
  check_query_memory(*this, "variance", static_cast<double>(xs.rows()), 2, 0);
  const Eigen::MatrixXd v = factor().matrixL().solve(kernel_.cross(X_, xs));
  const Eigen::VectorXd prior = Eigen::VectorXd::Ones(xs.rows());  // k(x, x) = 1
  const Eigen::VectorXd kd = (prior - v.colwise().squaredNorm().transpose()).cwiseMax(0.0);
  return s2 * kd;
}

Eigen::MatrixXd Posterior::cross_covariance(const Points& a, const Points& b) const {
  check_query(a);
  check_query(b);
  // m = the larger side: the 4 n x m_a and n x m_b blocks fit in 4 n x m, the m_a x m_b result is
  // (m_a m_b / m²) m x m blocks.
  const auto ma = static_cast<double>(a.rows()), mb = static_cast<double>(b.rows());
  const double m = std::max(ma, mb);
  check_query_memory(*this, "cross-covariance", m, 4, m > 0 ? ma * mb / (m * m) : 0.0);
  const Eigen::MatrixXd va = factor().matrixL().solve(kernel_.cross(X_, a));
  const Eigen::MatrixXd vb = factor().matrixL().solve(kernel_.cross(X_, b));
  return theta_.sigma * theta_.sigma * (kernel_.cross(a, b) - va.transpose() * vb);
}

Eigen::MatrixXd Posterior::covariance(const Points& xs) const {
  check_query(xs);
  check_query_memory(*this, "covariance", static_cast<double>(xs.rows()), 2, 1);
  const Eigen::MatrixXd v = factor().matrixL().solve(kernel_.cross(X_, xs));
  Eigen::MatrixXd c = kernel_.gram(xs);
  c.noalias() -= v.transpose() * v;
  return theta_.sigma * theta_.sigma * c;
}

Eigen::VectorXd Posterior::excursion_probability(const Points& xs, double threshold) const {
  check_query(xs);
  Eigen::VectorXd mu, var;
  if (markov_ && xs.cols() == 1) {
    markov_->mean_and_variance(xs.col(0), &mu, &var);
    var *= theta_.sigma * theta_.sigma;
  } else {
    mu = mean(xs);
    var = variance(xs);
  }
  Eigen::VectorXd p(xs.rows());
  for (Eigen::Index i = 0; i < xs.rows(); ++i) {
    if (var[i] <= 0.0) {
      p[i] = mu[i] >= threshold ? 1.0 : 0.0;
    } else {
      p[i] = 0.5 * std::erfc(-(mu[i] - threshold) / std::sqrt(2.0 * var[i]));
    }
  }
  return p;
}

double Posterior::effective_dimension() const {
  if (markov_) return markov_->effective_dimension();
  // tr(K (K + r²W)⁻¹) = n − r² tr(W (K + r²W)⁻¹), and [A⁻¹]_ii = ‖column i of L⁻¹‖² (so
  // tr(A⁻¹) = ‖L⁻¹‖_F² when W = I).
  check_query_memory(*this, "effective dimension", static_cast<double>(n()), 2, 0);
  const Eigen::MatrixXd linv = factor().matrixL().solve(Eigen::MatrixXd::Identity(n(), n()));
  if (noise_weights_.size() > 0) {
    return static_cast<double>(n()) -
           theta_.r * theta_.r * noise_weights_.dot(linv.colwise().squaredNorm().transpose());
  }
  return static_cast<double>(n()) - theta_.r * theta_.r * linv.squaredNorm();
}

}  // namespace gpdp
