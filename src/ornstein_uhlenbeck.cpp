#include "gpdp/ornstein_uhlenbeck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "gpdp/error.hpp"

namespace gpdp {

namespace {

// One OU step of length Δ ≥ 0: f' = a f + w, w ~ N(0, q) (unit variance process).
struct Step {
  double a;
  double q;
};
Step ou_step(double delta, double ell) {
  return {std::exp(-delta / ell), -std::expm1(-2.0 * delta / ell)};
}

std::vector<Eigen::Index> sorted_order(const Eigen::VectorXd& x) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(x.size()));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  if (!std::is_sorted(x.data(), x.data() + x.size())) {
    std::stable_sort(order.begin(), order.end(),
                     [&x](Eigen::Index i, Eigen::Index j) { return x[i] < x[j]; });
  }
  return order;
}

}  // namespace

// Lemma B.6: the exponential kernel in 1-D is the OU covariance; Kalman filter + RTS smoother.
OrnsteinUhlenbeckPosterior::OrnsteinUhlenbeckPosterior(const Eigen::VectorXd& x,
                                                       const Eigen::VectorXd& y, double ell,
                                                       double r)
    : ell_(ell), r_(r) {
  require(x.size() == y.size() && x.size() >= 1, "markov posterior: need n ≥ 1 pairs (x, y)");
  require(std::isfinite(ell) && ell > 0,
          fmt::format("lengthscale ℓ must be positive, got {}", ell));
  require(std::isfinite(r) && r > 0, fmt::format("regularisation r must be positive, got {}", r));
  const auto order = sorted_order(x);
  const double r2 = r * r;
  std::vector<Eigen::Index> node_of(order.size());
  std::vector<double> count;
  for (const Eigen::Index i : order) {
    if (t_.empty() || x[i] != t_.back()) {
      t_.push_back(x[i]);
      ybar_.push_back(0.0);
      count.push_back(0.0);
    }
    ybar_.back() += y[i];
    count.back() += 1.0;
    node_of[static_cast<std::size_t>(i)] = static_cast<Eigen::Index>(t_.size() - 1);
  }
  const std::size_t K = t_.size();
  noise_.resize(K);
  for (std::size_t k = 0; k < K; ++k) {
    ybar_[k] /= count[k];
    noise_[k] = r2 / count[k];  // c observations with noise r² ≡ one of their mean with r²/c
  }
  mf_.resize(K);
  pf_.resize(K);
  for (std::size_t k = 0; k < K; ++k) {
    double mpred = 0.0, ppred = 1.0;
    if (k > 0) {
      const Step s = ou_step(t_[k] - t_[k - 1], ell_);
      mpred = s.a * mf_[k - 1];
      ppred = s.a * s.a * pf_[k - 1] + s.q;
    }
    const double total = ppred + noise_[k];
    mf_[k] = mpred + ppred / total * (ybar_[k] - mpred);
    pf_[k] = ppred * noise_[k] / total;
  }
  ms_ = mf_;
  ps_ = pf_;
  for (std::size_t k = K - 1; k-- > 0;) {
    const Step s = ou_step(t_[k + 1] - t_[k], ell_);
    const double ppred = s.a * s.a * pf_[k] + s.q;
    const double gain = s.a * pf_[k] / ppred;
    ms_[k] = mf_[k] + gain * (ms_[k + 1] - s.a * mf_[k]);
    // Sum of two non-negative terms (conditional variance + propagated smoothed variance): no
    // cancellation, unlike the textbook P + G² (P_s − P⁻).
    ps_[k] = pf_[k] * s.q / ppred + gain * gain * ps_[k + 1];
  }
  weights_.resize(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    weights_[i] = (y[i] - ms_[static_cast<std::size_t>(node_of[static_cast<std::size_t>(i)])]) / r2;
  }
  for (std::size_t k = 0; k < K; ++k) effective_dimension_ += count[k] * ps_[k];
  effective_dimension_ /= r2;
}

void OrnsteinUhlenbeckPosterior::mean_and_variance(const Eigen::VectorXd& xs, Eigen::VectorXd* mean,
                                                   Eigen::VectorXd* kd) const {
  const auto K = static_cast<std::ptrdiff_t>(t_.size());
  if (mean) mean->resize(xs.size());
  if (kd) kd->resize(xs.size());
  for (Eigen::Index i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    const std::ptrdiff_t right = std::upper_bound(t_.begin(), t_.end(), x) - t_.begin();
    const std::ptrdiff_t left = right - 1;
    double mu = 0.0, var = 0.0;
    if (left >= 0 && t_[static_cast<std::size_t>(left)] == x) {
      mu = ms_[static_cast<std::size_t>(left)];
      var = ps_[static_cast<std::size_t>(left)];
    } else {
      // Predict from the filtered state on the left (or the prior), then smooth with the right.
      double mx = 0.0, px = 1.0;
      Step s1{0.0, 1.0};
      if (left >= 0) {
        const auto l = static_cast<std::size_t>(left);
        s1 = ou_step(x - t_[l], ell_);
        mx = s1.a * mf_[l];
        px = s1.a * s1.a * pf_[l] + s1.q;
      }
      if (right < K) {
        const auto rr = static_cast<std::size_t>(right);
        const Step s2 = ou_step(t_[rr] - x, ell_);
        const double ppred = s2.a * s2.a * px + s2.q;
        const double gain = s2.a * px / ppred;
        mu = mx + gain * (ms_[rr] - s2.a * mx);
        var = px * s2.q / ppred + gain * gain * ps_[rr];
      } else {
        const auto l = static_cast<std::size_t>(left);  // K ≥ 1, so left exists here
        mu = s1.a * ms_[l];
        var = s1.a * s1.a * ps_[l] + s1.q;
      }
    }
    if (mean) (*mean)[i] = mu;
    if (kd) (*kd)[i] = var;
  }
}

// Lemma B.6 (OU state space): forward-filter backward-sampling over the merged sorted positions.
Eigen::MatrixXd OrnsteinUhlenbeckPosterior::sample(const Eigen::VectorXd& xs, int draws, Rng& rng,
                                                   double sigma, const Eigen::VectorXd& fixed_x,
                                                   const Eigen::VectorXd& fixed_values) const {
  require(draws >= 0, "markov sampler: the number of draws must be ≥ 0");
  require(fixed_x.size() == fixed_values.size(),
          "markov sampler: fixed points and values differ in length");
  const Eigen::Index m = xs.size(), p = fixed_x.size();
  // Extra positions (queries then fixed points), sorted.
  Eigen::VectorXd extra(m + p);
  extra << xs, fixed_x;
  const auto order = sorted_order(extra);

  constexpr double kNone = std::numeric_limits<double>::infinity();
  std::vector<double> pos, ybar, noise, fixed;  // per merged node
  const std::size_t cap = t_.size() + static_cast<std::size_t>(m + p);
  pos.reserve(cap);
  ybar.reserve(cap);
  noise.reserve(cap);
  fixed.reserve(cap);
  std::vector<Eigen::Index> node_of_query(static_cast<std::size_t>(m));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto node_at = [&](double x) {
    if (pos.empty() || pos.back() != x) {
      pos.push_back(x);
      ybar.push_back(0.0);
      noise.push_back(kNone);
      fixed.push_back(nan);
    }
    return pos.size() - 1;
  };
  std::size_t i = 0, j = 0;
  while (i < t_.size() || j < order.size()) {
    const bool take_training = j == order.size() || (i < t_.size() && t_[i] <= extra[order[j]]);
    if (take_training) {
      const std::size_t k = node_at(t_[i]);
      ybar[k] = ybar_[i];
      noise[k] = noise_[i];
      ++i;
    } else {
      const Eigen::Index e = order[j];
      const std::size_t k = node_at(extra[e]);
      if (e < m) {
        node_of_query[static_cast<std::size_t>(e)] = static_cast<Eigen::Index>(k);
      } else {
        fixed[k] = fixed_values[e - m];
      }
      ++j;
    }
  }

  const std::size_t K = pos.size();
  std::vector<double> mf(K), pf(K), a(K, 0.0), q(K, 1.0);
  for (std::size_t k = 0; k < K; ++k) {
    double mpred = 0.0, ppred = 1.0;
    if (k > 0) {
      const Step s = ou_step(pos[k] - pos[k - 1], ell_);
      a[k] = s.a;
      q[k] = s.q;
      mpred = s.a * mf[k - 1];
      ppred = s.a * s.a * pf[k - 1] + s.q;
    }
    if (!std::isnan(fixed[k])) {  // exact observation: the state is known
      mf[k] = fixed[k];
      pf[k] = 0.0;
    } else if (noise[k] != kNone) {
      const double total = ppred + noise[k];
      mf[k] = mpred + ppred / total * (ybar[k] - mpred);
      pf[k] = ppred * noise[k] / total;
    } else {
      mf[k] = mpred;
      pf[k] = ppred;
    }
  }

  Eigen::MatrixXd out(m, draws);
  std::vector<double> f(K);
  for (int l = 0; l < draws; ++l) {
    f[K - 1] = mf[K - 1] + sigma * std::sqrt(pf[K - 1]) * rng.standard_normal();
    for (std::size_t k = K - 1; k-- > 0;) {
      // f_k | f_{k+1}, data up to k: N(m + G (f_{k+1} − a m), P q / P⁻), G = a P / P⁻.
      const double ppred = a[k + 1] * a[k + 1] * pf[k] + q[k + 1];
      const double gain = a[k + 1] * pf[k] / ppred;
      const double mu = mf[k] + gain * (f[k + 1] - a[k + 1] * mf[k]);
      const double var = pf[k] * q[k + 1] / ppred;
      f[k] = mu + sigma * std::sqrt(var) * rng.standard_normal();
    }
    for (Eigen::Index e = 0; e < m; ++e) {
      out(e, l) = f[static_cast<std::size_t>(node_of_query[static_cast<std::size_t>(e)])];
    }
  }
  return out;
}

void add_ou_prior_draws(const Eigen::VectorXd& xs, double ell, double eta, Rng& rng,
                        Eigen::MatrixXd& out) {
  const auto order = sorted_order(xs);
  for (Eigen::Index l = 0; l < out.cols(); ++l) {
    double g = 0.0;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const Eigen::Index e = order[k];
      if (k == 0) {
        g = eta * rng.standard_normal();
      } else {
        const double delta = xs[e] - xs[order[k - 1]];
        if (delta > 0.0) {  // ties share the value (a = 1, q = 0)
          const Step s = ou_step(delta, ell);
          g = s.a * g + eta * std::sqrt(s.q) * rng.standard_normal();
        }
      }
      out(e, l) += g;
    }
  }
}

}  // namespace gpdp
