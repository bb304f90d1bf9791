#include "gpdp/ops/hmc.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::ops {

namespace {

// Whitened coordinates u: θ = m + U⁻¹u with A = UᵀU (A = LLᵀ, U = Lᵀ).
struct Whitening {
  Eigen::VectorXd mode;
  Eigen::LLT<Eigen::MatrixXd> llt;
  Eigen::VectorXd theta(const Eigen::VectorXd& u) const { return mode + llt.matrixU().solve(u); }
  Eigen::VectorXd to_u(const Eigen::VectorXd& theta) const {
    return llt.matrixU() * (theta - mode);
  }
  // ∇_u = U^{-T} ∇_θ = L⁻¹ ∇_θ.
  Eigen::VectorXd grad_u(const Eigen::VectorXd& grad_theta) const {
    return llt.matrixL().solve(grad_theta);
  }
  // Position update u ← u + step·p that reflects specularly (in u, the kinetic-energy metric) off
  // the ellipsoid {u : ‖θ(u)‖ = R}: a reversible, volume-preserving map (Afshar & Domke 2015), so
  // leapfrog with it is a valid HMC proposal that never leaves the ball.
  void reflective_drift(Eigen::VectorXd& u, Eigen::VectorXd& p, double step, double radius) const {
    double remaining = step;
    for (int bounce = 0; bounce < 100 && remaining > 0; ++bounce) {
      const Eigen::VectorXd th = theta(u);
      const Eigen::VectorXd v = llt.matrixU().solve(p);  // dθ/ds
      const double a = v.squaredNorm(), b = 2.0 * th.dot(v), c = th.squaredNorm() - radius * radius;
      const double disc = b * b - 4.0 * a * c;
      const double s = a > 0 && disc >= 0 ? (-b + std::sqrt(disc)) / (2.0 * a) : remaining;
      if (!(s < remaining) || s < 0) {
        u += remaining * p;
        return;
      }
      u += s * p;
      remaining -= s;
      const Eigen::VectorXd normal = grad_u(theta(u)).normalized();
      p -= 2.0 * p.dot(normal) * normal;
    }
  }
};

Eigen::VectorXd normals(Rng& rng, Eigen::Index d) {
  Eigen::VectorXd v(d);
  rng.fill_standard_normal(v.data(), static_cast<std::size_t>(d));
  return v;
}

// Dual averaging of the log step size (Hoffman & Gelman 2014, Alg. 5).
struct DualAveraging {
  double mu, log_eps, log_eps_bar = 0.0, h_bar = 0.0;
  int t = 0;
  double target;
  explicit DualAveraging(double eps0, double tgt)
      : mu(std::log(10.0 * eps0)), log_eps(std::log(eps0)), target(tgt) {}
  void update(double accept) {
    ++t;
    const double td = static_cast<double>(t);
    h_bar = (1.0 - 1.0 / (td + 10.0)) * h_bar + (target - accept) / (td + 10.0);
    log_eps = mu - std::sqrt(td) / 0.05 * h_bar;
    const double w = std::pow(td, -0.75);
    log_eps_bar = w * log_eps + (1.0 - w) * log_eps_bar;
  }
};

}  // namespace

// Laplace approximation of the restricted target at its mode. Interior mode: the precision A.
// Mode θ* on the sphere with inward slope λ = ‖∇log p(θ*)‖ and multiplier μ = λ/R: tangentially
// the Lagrangian's Hessian A + μI (the sphere's curvature adds μ), radially an exponential-like
// law of rate λ, variance ≈ 1/(nᵀ(A + μI)n + λ²). Only the metric changes: the target is the same.
Eigen::MatrixXd boundary_metric(const TemperedPosterior& target,
                                const TemperedPosterior::Mode& mode) {
  Eigen::MatrixXd a = target.precision(mode.theta);
  if (!(mode.boundary_slope > 0)) return a;
  const Eigen::Index d = a.rows();
  const Eigen::VectorXd n = mode.theta.normalized();
  a.diagonal().array() += mode.boundary_slope / target.radius();
  const double radial = n.dot(a * n) + mode.boundary_slope * mode.boundary_slope;
  const Eigen::MatrixXd p = Eigen::MatrixXd::Identity(d, d) - n * n.transpose();
  Eigen::MatrixXd m = p * a * p + radial * n * n.transpose();
  return 0.5 * (m + m.transpose());
}

HmcRun hmc_sample(const TemperedPosterior& target, const HmcOptions& options, Rng& rng) {
  require_parameter(options.chains >= 1, "chains", "hmc: chains must be >= 1");
  require(options.samples >= 4, "hmc: need at least 4 kept iterations per chain");
  require(options.warmup >= 0 && options.leapfrog_steps >= 1,
          "hmc: invalid warm-up / leapfrog steps");
  require(options.integration_time > 0, "hmc: integration time must be > 0");
  const Eigen::Index d = target.dim();
  const double radius = target.radius();

  Whitening w;
  if (options.precondition) {
    const TemperedPosterior::Mode mode = target.constrained_mode();
    w.mode = mode.theta;
    w.llt.compute(boundary_metric(target, mode));
    if (w.llt.info() != Eigen::Success)
      throw NumericalError("hmc: posterior precision is not positive definite");
  } else {
    w.mode = Eigen::VectorXd::Zero(d);
    w.llt.compute(Eigen::MatrixXd::Identity(d, d));
  }
  auto log_u = [&](const Eigen::VectorXd& u, Eigen::VectorXd* gu) {
    Eigen::VectorXd g;
    const Eigen::VectorXd th = w.theta(u);
    const double v = target.log_density(th, gu != nullptr ? &g : nullptr);
    if (gu != nullptr) *gu = w.grad_u(g);
    return v;
  };
  auto grad_only_u = [&](const Eigen::VectorXd& u) {
    return w.grad_u(target.gradient(w.theta(u)));
  };

  HmcRun run;
  for (int c = 0; c < options.chains; ++c) {
    // Overdispersed start: twice the Laplace scale around the mode, pulled inside the ball.
    Eigen::VectorXd theta0 = w.theta(2.0 * normals(rng, d));
    if (theta0.norm() >= radius) theta0 *= 0.99 * radius / theta0.norm();
    Eigen::VectorXd u = w.to_u(theta0);
    Eigen::VectorXd grad;
    double logp = log_u(u, &grad);
    double eps =
        1.0 / std::pow(static_cast<double>(d), 0.25) / static_cast<double>(options.leapfrog_steps);
    DualAveraging da(eps, options.target_accept);
    Eigen::MatrixXd kept(options.samples, d);
    int accepted = 0;
    for (int it = 0; it < options.warmup + options.samples; ++it) {
      const bool warm = it < options.warmup;
      // Random integration time (±40 %) so that no fixed length resonates with the target, covered
      // by at most leapfrog_steps steps of at most the adapted ε (then jittered ±20 %).
      const double time = options.integration_time * (0.6 + 0.8 * rng.uniform01());
      const int steps = static_cast<int>(
          std::clamp(std::ceil(time / eps), 1.0, static_cast<double>(options.leapfrog_steps)));
      const double step = std::min(time / steps, eps * (0.8 + 0.4 * rng.uniform01()));
      Eigen::VectorXd p = normals(rng, d);
      const double h0 = -logp + 0.5 * p.squaredNorm();
      Eigen::VectorXd u_new = u, g_new = grad;
      double logp_new = logp;
      p += 0.5 * step * g_new;
      for (int l = 0; l < steps; ++l) {
        w.reflective_drift(u_new, p, step, radius);
        if (l + 1 < steps) {
          g_new = grad_only_u(u_new);  // the value is needed only at the end of the trajectory
          p += step * g_new;
        } else {
          logp_new = log_u(u_new, &g_new);  // −∞ only by rounding at the wall: rejected
        }
      }
      p += 0.5 * step * g_new;
      double accept = 0.0;
      if (std::isfinite(logp_new)) {
        const double h1 = -logp_new + 0.5 * p.squaredNorm();
        accept = std::isfinite(h1) ? std::min(1.0, std::exp(h0 - h1)) : 0.0;
      }
      if (rng.uniform01() < accept) {
        u = u_new;
        grad = g_new;
        logp = logp_new;
        if (!warm) ++accepted;
      }
      if (warm) {
        da.update(accept);
        eps = std::exp(da.log_eps);
        if (it + 1 == options.warmup) eps = std::exp(da.log_eps_bar);
      } else {
        kept.row(it - options.warmup) = w.theta(u).transpose();
      }
    }
    run.draws.push_back(std::move(kept));
    run.final_state.push_back(w.theta(u));
    run.accept_rate.push_back(static_cast<double>(accepted) / options.samples);
    run.step_size.push_back(eps);
  }
  run.diagnostics = diagnose(run.draws);
  return run;
}

}  // namespace gpdp::ops
