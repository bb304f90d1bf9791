#include "audit_search.hpp"

#include <algorithm>
#include <cmath>
#include <nlopt.hpp>

#include "gpdp/parallel.hpp"

namespace gpdp::auditor {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Projected gradient ascent on [0,1]^p (see gradient_search). Returns the last accepted point.
std::vector<double> projected_ascent(
    const std::function<double(const std::vector<double>&, std::vector<double>*)>& f,
    std::vector<double> u, int max_iterations, long& evaluations) {
  std::vector<double> g, trial_g, trial(u.size());
  double fu = f(u, &g);
  ++evaluations;
  if (!std::isfinite(fu)) return u;
  double step = 0.02;
  int stalls = 0;
  for (int it = 1; it < max_iterations; ++it) {
    double scale = 0.0;
    for (std::size_t i = 0; i < u.size(); ++i) {
      const bool blocked = (u[i] <= 0.0 && g[i] < 0.0) || (u[i] >= 1.0 && g[i] > 0.0);
      if (blocked) g[i] = 0.0;
      scale = std::max(scale, std::abs(g[i]));
    }
    if (!(scale > 0.0) || !std::isfinite(scale)) break;
    double slope = 0.0;
    for (std::size_t i = 0; i < u.size(); ++i) {
      trial[i] = std::clamp(u[i] + step * g[i] / scale, 0.0, 1.0);
      slope += g[i] * (trial[i] - u[i]);
    }
    const double ft = f(trial, &trial_g);
    ++evaluations;
    if (std::isfinite(ft) && ft >= fu + 1e-4 * slope) {
      stalls = ft - fu <= 1e-10 * std::max(1.0, std::abs(fu)) ? stalls + 1 : 0;
      u.swap(trial);
      g.swap(trial_g);
      fu = ft;
      step = std::min(2.0 * step, 0.5);
      if (stalls >= 10) break;
    } else {
      step *= 0.25;
      if (step < 1e-8) break;
    }
  }
  return u;
}

Eigen::RowVectorXd at(const Box& box, const Eigen::RowVectorXd& t) {
  Eigen::RowVectorXd x(t.size());
  for (Eigen::Index j = 0; j < t.size(); ++j) {
    const double tj = std::clamp(t[j], 0.0, 1.0);
    x[j] = box.lower()[j] + tj * (box.upper()[j] - box.lower()[j]);
  }
  return x;
}

Eigen::RowVectorXd corner(const Box& box, unsigned bits) {
  Eigen::RowVectorXd t(box.dim());
  for (int j = 0; j < box.dim(); ++j) t[j] = (bits >> j) & 1u;
  return at(box, t);
}

Eigen::RowVectorXd uniform_point(const Box& box, SeededRng& rng) {
  Eigen::RowVectorXd t(box.dim());
  for (int j = 0; j < box.dim(); ++j) t[j] = rng.uniform01();
  return at(box, t);
}

// p moved by `radius` in a random direction, clamped into the box.
Eigen::RowVectorXd near(const Box& box, const Eigen::RowVectorXd& p, double radius,
                        SeededRng& rng) {
  Eigen::RowVectorXd dir(p.size());
  for (Eigen::Index j = 0; j < p.size(); ++j) dir[j] = rng.standard_normal();
  if (dir.norm() == 0) dir.setOnes();
  Eigen::RowVectorXd q = p + radius * dir / dir.norm();
  for (Eigen::Index j = 0; j < q.size(); ++j) {
    q[j] = std::clamp(q[j], box.lower()[j], box.upper()[j]);
  }
  return q;
}

double alternating(long i, double M) { return i % 2 == 0 ? M : -M; }

// A pair of the codec's shape from its parts; in same-covariate mode x' := x. Free test points
// cycle through: near x, near x', near a core point, a corner, uniform.
NeighbourPair assemble(const PairCodec& codec, const Points& core, const Eigen::VectorXd& core_y,
                       const Eigen::RowVectorXd& x, double y, Eigen::RowVectorXd xp, double yp,
                       double ell, SeededRng& rng) {
  const Box& box = codec.box();
  const auto n = static_cast<Eigen::Index>(codec.n());
  if (codec.same_covariate()) xp = x;
  NeighbourPair p;
  p.X.resize(n, codec.dim());
  p.y.resize(n);
  p.X.topRows(n - 1) = core;
  p.y.head(n - 1) = core_y;
  p.Xp = p.X;
  p.yp = p.y;
  p.X.row(n - 1) = x;
  p.y[n - 1] = y;
  p.Xp.row(n - 1) = xp;
  p.yp[n - 1] = yp;
  const int fixed = codec.same_covariate() ? 1 : 2;
  p.test.resize(fixed + codec.extra_test(), codec.dim());
  p.test.row(0) = x;
  if (!codec.same_covariate()) p.test.row(1) = xp;
  for (int i = 0; i < codec.extra_test(); ++i) {
    Eigen::RowVectorXd t;
    switch (i % 5) {
      case 0:
        t = near(box, x, ell / 3.0, rng);
        break;
      case 1:
        t = near(box, xp, ell / 3.0, rng);
        break;
      case 2:
        t = n > 1 ? near(box,
                         core.row(static_cast<Eigen::Index>(rng.uniform01() *
                                                            static_cast<double>(n - 1))),
                         ell / 10.0, rng)
                  : uniform_point(box, rng);
        break;
      case 3:
        t = near(box, corner(box, static_cast<unsigned>(rng.uniform01() * (1u << box.dim()))),
                 1e-3 * box.diameter(), rng);
        break;
      default:
        t = uniform_point(box, rng);
    }
    p.test.row(fixed + i) = t;
  }
  return p;
}

}  // namespace

void Found::offer(double v, const NeighbourPair& pair, const std::string& from) {
  ++evaluations;
  if (std::isnan(v) || std::isinf(v)) {
    ++singular;
    return;
  }
  if (v > best) {
    best = v;
    witness = pair;
    start = from;
  }
}

void Found::merge(const Found& other) {
  evaluations += other.evaluations;
  singular += other.singular;
  if (other.best > best) {
    best = other.best;
    witness = other.witness;
    start = other.start;
  }
}

std::vector<std::vector<double>> subplex_starts(const PairCodec& codec, int restarts,
                                                SeededRng& rng) {
  std::vector<std::vector<double>> starts;
  for (int restart = 0; restart < restarts; ++restart) {
    std::vector<double> u(static_cast<std::size_t>(codec.size()));
    for (auto& x : u) x = rng.uniform01();
    if (restart % 2 == 0) {  // half of the starts put every coordinate near a face of the cube
      for (auto& x : u) x = x < 0.5 ? std::min(x, 0.02) : std::max(x, 0.98);
    }
    starts.push_back(std::move(u));
  }
  return starts;
}

Found subplex_from(const PairCodec& codec, std::vector<double> u, int max_evals,
                   const ExactObjective& exact) {
  Found out;
  const int p = codec.size();
  auto objective = [&](const std::vector<double>& v) {
    const NeighbourPair pair = codec.decode(v);
    const double value = exact(pair);
    out.offer(value, pair);
    return std::isfinite(value) ? value : 0.0;
  };
  if (p == 0) {
    objective(u);
    return out;
  }
  nlopt::opt opt(nlopt::LN_SBPLX, static_cast<unsigned>(p));
  opt.set_lower_bounds(std::vector<double>(p, 0.0));
  opt.set_upper_bounds(std::vector<double>(p, 1.0));
  opt.set_maxeval(max_evals);
  opt.set_xtol_rel(1e-10);
  auto thunk = [](const std::vector<double>& x, std::vector<double>&, void* data) {
    return (*static_cast<decltype(objective)*>(data))(x);
  };
  opt.set_max_objective(thunk, &objective);
  double f = 0;
  try {
    opt.optimize(u, f);
  } catch (const std::exception&) {
    // roundoff-limited / forced stop: the best point is already recorded by the objective.
  }
  return out;
}

Found subplex_search(const PairCodec& codec, int restarts, int max_evals, SeededRng& rng,
                     const ExactObjective& exact) {
  Found out;
  for (auto& u : subplex_starts(codec, restarts, rng)) {
    out.merge(subplex_from(codec, std::move(u), max_evals, exact));
  }
  return out;
}

Found ascend_from(const PairCodec& codec, const Start& start, int max_iterations,
                  const SmoothObjective& smooth, const ExactObjective& exact) {
  Found out;
  auto f = [&](const std::vector<double>& u, std::vector<double>* du) {
    PairGradient g;
    const double v = smooth(codec.decode(u), du ? &g : nullptr);
    if (!std::isfinite(v)) return kNaN;
    if (du) *du = codec.pull_back(g);
    return v;
  };
  const std::vector<double> u0 = codec.encode(start.pair);
  const NeighbourPair first = codec.decode(u0);
  out.offer(exact(first), first, start.name);
  const std::vector<double> u = projected_ascent(f, u0, max_iterations, out.evaluations);
  const NeighbourPair last = codec.decode(u);
  out.offer(exact(last), last, start.name);
  return out;
}

Found gradient_search(const PairCodec& codec, const std::vector<Start>& starts, int max_iterations,
                      const SmoothObjective& smooth, const ExactObjective& exact, int threads) {
  std::vector<Found> slots(starts.size());
  parallel_for(static_cast<long>(starts.size()), threads, [&](long s) {
    slots[static_cast<std::size_t>(s)] =
        ascend_from(codec, starts[static_cast<std::size_t>(s)], max_iterations, smooth, exact);
  });
  Found all;
  for (const auto& s : slots) all.merge(s);
  return all;
}

std::vector<Start> structured_starts(const PairCodec& codec, double ell, SeededRng& rng) {
  const Box& box = codec.box();
  const double M = codec.M_Y();
  const long core_n = codec.n() - 1;
  const auto core = static_cast<Eigen::Index>(core_n);
  const int d = codec.dim();
  const unsigned corners = 1u << d;
  const Eigen::RowVectorXd centre = at(box, Eigen::RowVectorXd::Constant(d, 0.5));
  const Eigen::RowVectorXd c0 = corner(box, 0), c_far = corner(box, corners - 1);
  const Eigen::RowVectorXd c_side = d >= 2 ? corner(box, 1) : centre;
  auto random_corner = [&] {
    return corner(box, static_cast<unsigned>(rng.uniform01() * corners) % corners);
  };
  std::vector<Start> out;
  auto add = [&](const std::string& name, const Points& X, const Eigen::VectorXd& y,
                 const Eigen::RowVectorXd& x, double yx, const Eigen::RowVectorXd& xp, double yxp) {
    out.push_back({assemble(codec, X, y, x, yx, xp, yxp, ell, rng), name});
  };
  Points X(core, d);
  Eigen::VectorXd y(core);

  // The differing point far from a clustered core (the n = 1 worst case when n = 1).
  for (Eigen::Index i = 0; i < core; ++i) X.row(i) = c0, y[i] = alternating(i, M);
  add("x far from a clustered core", X, y, c_far, M, c_side, -M);
  // On top of a core whose responses oppose y: the residual y − μ−(x) approaches 2 M_Y.
  for (Eigen::Index i = 0; i < core; ++i) X.row(i) = centre, y[i] = -M;
  add("x on top of an opposing core", X, y, centre, M, c_far, -M);
  // On top of a core with alternating responses, x' just beside it.
  for (Eigen::Index i = 0; i < core; ++i) X.row(i) = centre, y[i] = alternating(i, M);
  add("x on top of an alternating core", X, y, centre, M, near(box, centre, ell / 5.0, rng), -M);
  // Two opposite clusters, x on the +M_Y one with −M_Y and x' on the −M_Y one with +M_Y.
  const Eigen::RowVectorXd p = uniform_point(box, rng), q = near(box, p, ell, rng);
  for (Eigen::Index i = 0; i < core; ++i) {
    X.row(i) = i % 2 == 0 ? p : q;
    y[i] = alternating(i, M);
  }
  add("two opposite clusters", X, y, p, -M, q, M);
  // Core on the corners, differing points on corners.
  for (Eigen::Index i = 0; i < core; ++i) X.row(i) = random_corner(), y[i] = alternating(i, M);
  add("corners", X, y, random_corner(), M, random_corner(), -M);
  // Core on the boundary faces.
  for (Eigen::Index i = 0; i < core; ++i) {
    Eigen::RowVectorXd t(d);
    for (int j = 0; j < d; ++j) t[j] = rng.uniform01();
    t[static_cast<Eigen::Index>(rng.uniform01() * d) % d] = rng.uniform01() < 0.5 ? 0.0 : 1.0;
    X.row(i) = at(box, t);
    y[i] = alternating(i, M);
  }
  add("boundary", X, y, c0, M, c_far, -M);
  // A checkerboard grid over the box, x between grid nodes.
  if (core > 0) {
    const auto g = static_cast<long>(
        std::ceil(std::pow(static_cast<double>(core_n), 1.0 / static_cast<double>(d)) - 1e-9));
    for (Eigen::Index i = 0; i < core; ++i) {
      Eigen::RowVectorXd t(d);
      long rest = static_cast<long>(i), parity = 0;
      for (int j = 0; j < d; ++j) {
        const long k = rest % g;
        rest /= g;
        parity += k;
        t[j] = (static_cast<double>(k) + 0.5) / static_cast<double>(g);
      }
      X.row(i) = at(box, t);
      y[i] = parity % 2 == 0 ? M : -M;
    }
    add("checkerboard grid", X, y, near(box, X.row(core / 2), 0.5 / static_cast<double>(g), rng), M,
        uniform_point(box, rng), -M);
  }
  // A tight cluster around x, x' far.
  const Eigen::RowVectorXd x = uniform_point(box, rng);
  for (Eigen::Index i = 0; i < core; ++i) {
    X.row(i) = near(box, x, ell / 5.0 * rng.uniform01(), rng);
    y[i] = alternating(i, M);
  }
  add("cluster around x", X, y, x, M, c_far, -M);
  // Uniform covariates, responses ±M_Y at random.
  for (Eigen::Index i = 0; i < core; ++i) {
    X.row(i) = uniform_point(box, rng);
    y[i] = rng.uniform01() < 0.5 ? M : -M;
  }
  add("uniform, responses ±M_Y", X, y, uniform_point(box, rng), M, uniform_point(box, rng), -M);
  return out;
}

std::vector<Start> random_starts(const PairCodec& codec, int count, SeededRng& rng) {
  std::vector<Start> out;
  const auto n = static_cast<Eigen::Index>(codec.n());
  for (int s = 0; s < count; ++s) {
    std::vector<double> u(static_cast<std::size_t>(codec.size()));
    for (auto& t : u) t = rng.uniform01();
    NeighbourPair p = codec.decode(u);
    if (s % 2 == 0) {  // half of them with every response at ±M_Y
      for (Eigen::Index i = 0; i < n; ++i) p.y[i] = p.y[i] < 0 ? -codec.M_Y() : codec.M_Y();
      p.yp.head(n - 1) = p.y.head(n - 1);
      p.yp[n - 1] = p.yp[n - 1] < 0 ? -codec.M_Y() : codec.M_Y();
    }
    out.push_back({p, "random"});
  }
  return out;
}

Start extend_pair(const PairCodec& codec, const NeighbourPair& w, int rule, SeededRng& rng) {
  const Box& box = codec.box();
  const double M = codec.M_Y();
  const Eigen::Index n0 = w.X.rows(), n = static_cast<Eigen::Index>(codec.n());
  const Eigen::Index old_core = n0 - 1, core = n - 1;
  Points X(core, codec.dim());
  Eigen::VectorXd y(core);
  X.topRows(old_core) = w.X.topRows(old_core);
  y.head(old_core) = w.y.head(old_core);
  const Eigen::RowVectorXd x = w.X.row(n0 - 1), xp = w.Xp.row(n0 - 1);
  const double yx = w.y[n0 - 1], yxp = w.yp[n0 - 1];
  auto against = [&](double v) { return v < 0 ? M : -M; };
  Eigen::RowVectorXd far = corner(box, 0);
  for (unsigned b = 0; b < (1u << codec.dim()); ++b) {
    if ((corner(box, b) - x).norm() > (far - x).norm()) far = corner(box, b);
  }
  static const char* const names[] = {
      "continuation: stack on x", "continuation: stack on x'", "continuation: copy the core",
      "continuation: far corner, alternating", "continuation: uniform ±M_Y"};
  for (Eigen::Index i = old_core; i < core; ++i) {
    switch (rule) {
      case 0:
        X.row(i) = x, y[i] = against(yx);
        break;
      case 1:
        X.row(i) = xp, y[i] = against(yxp);
        break;
      case 2:
        if (old_core > 0) {
          X.row(i) = X.row(i % old_core), y[i] = y[i % old_core];
        } else {
          X.row(i) = x, y[i] = alternating(i, M);
        }
        break;
      case 3:
        X.row(i) = far, y[i] = alternating(i, M);
        break;
      default:
        X.row(i) = uniform_point(box, rng), y[i] = rng.uniform01() < 0.5 ? M : -M;
    }
  }
  NeighbourPair p = assemble(codec, X, y, x, yx, xp, yxp, 0.0, rng);
  const int fixed = codec.same_covariate() ? 1 : 2;
  for (Eigen::Index i = fixed; i < p.test.rows() && i < w.test.rows(); ++i) {
    p.test.row(i) = w.test.row(i);
  }
  return {p, names[std::clamp(rule, 0, 4)]};
}

std::vector<long> continuation_ladder(long n) {
  std::vector<long> out{1};
  while (out.back() < n) {
    const long k = out.back();
    out.push_back(
        std::min(n, std::max(k + 1, static_cast<long>(std::ceil(1.5 * static_cast<double>(k))))));
  }
  return out;
}

}  // namespace gpdp::auditor
