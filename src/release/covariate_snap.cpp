// Snapping the training covariates to a fine public lattice (covariate_snap.hpp).
#include "gpdp/release/covariate_snap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::release {

namespace {

constexpr const char* kParameter = "snap_covariates";

// Node k of axis a refined by q: anchor + k·h/q (one formula everywhere, so that the nodes the
// plan counts are the nodes the snap uses).
double node_at(double anchor, double h, long q, long k) {
  return anchor + static_cast<double>(k) * h / static_cast<double>(q);
}

// The nodes of one axis inside [lo, hi] and the largest displacement of a point of [lo, hi] to
// its nearest one; +inf when no node lies inside or the indices would overflow.
struct AxisNodes {
  long first = 0, last = -1;
  double worst = std::numeric_limits<double>::infinity();
};

AxisNodes axis_nodes(double anchor, double h, long q, double lo, double hi) {
  AxisNodes a;
  const double s = h / static_cast<double>(q);
  const double t_lo = (lo - anchor) / s, t_hi = (hi - anchor) / s;
  if (!(std::abs(t_lo) < 1e15 && std::abs(t_hi) < 1e15)) return a;
  long k0 = static_cast<long>(std::ceil(t_lo)), k1 = static_cast<long>(std::floor(t_hi));
  while (node_at(anchor, h, q, k0 - 1) >= lo) --k0;
  while (node_at(anchor, h, q, k0) < lo) ++k0;
  while (node_at(anchor, h, q, k1 + 1) <= hi) ++k1;
  while (node_at(anchor, h, q, k1) > hi) --k1;
  if (k0 > k1) return a;
  a.first = k0;
  a.last = k1;
  a.worst = std::max(
      {k1 > k0 ? s / 2.0 : 0.0, node_at(anchor, h, q, k0) - lo, hi - node_at(anchor, h, q, k1)});
  return a;
}

std::string axis_name(const std::vector<std::string>& names, int a) {
  return static_cast<std::size_t>(a) < names.size() ? names[static_cast<std::size_t>(a)]
                                                    : fmt::format("x{}", a + 1);
}

std::string joined(const std::vector<long>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "x" : "") + std::to_string(v[i]);
  return out;
}

}  // namespace

double CovariateSnapPlan::lattice_step(int a) const {
  const auto i = static_cast<std::size_t>(a);
  return grid_step[i] / static_cast<double>(refinement[i]);
}

double CovariateSnapPlan::node(int a, long k) const {
  const auto i = static_cast<std::size_t>(a);
  return node_at(anchor[i], grid_step[i], refinement[i], k);
}

double CovariateSnapPlan::worst_displacement() const {
  double s = 0.0;
  for (const double w : worst) s += w * w;
  return std::sqrt(s);
}

CovariateSnapPlan plan_covariate_snap(double fraction, double ell, const Grid& grid,
                                      const Box& domain, long max_refinement,
                                      const std::vector<std::string>& names) {
  require_parameter(
      std::isfinite(fraction) && fraction > 0 && fraction <= 1, kParameter,
      fmt::format("snap_covariates must be a fraction of ℓ in (0, 1], got {}", fraction));
  require_parameter(grid.dim() == domain.dim(), kParameter,
                    fmt::format("snap_covariates: the grid has {} axes, the domain {}", grid.dim(),
                                domain.dim()));
  CovariateSnapPlan p;
  p.fraction = fraction;
  p.ell = ell;
  p.bound = fraction * ell / std::sqrt(static_cast<double>(grid.dim()));
  p.names = names;
  for (int a = 0; a < grid.dim(); ++a) {
    const GridAxis& axis = grid.axes()[static_cast<std::size_t>(a)];
    const double h = axis.step();
    const double lo = domain.lower()[a], hi = domain.upper()[a];
    require_parameter(axis.count >= 2 && h > 0, kParameter,
                      fmt::format("snap_covariates: grid axis {} has a single point (no lattice "
                                  "step to snap to)",
                                  axis_name(names, a)));
    long q = 1;
    AxisNodes nodes = axis_nodes(axis.lo, h, q, lo, hi);
    while (!(nodes.worst <= p.bound) && q < max_refinement)
      nodes = axis_nodes(axis.lo, h, ++q, lo, hi);
    if (!(nodes.worst <= p.bound)) {
      long needed = q;  // the q that would do (public: F, ℓ, the grid and the domain only)
      AxisNodes more = nodes;
      while (!(more.worst <= p.bound) && needed < 1000000)
        more = axis_nodes(axis.lo, h, ++needed, lo, hi);
      throw ParameterError(
          {kParameter},
          fmt::format("snap_covariates {}: a covariate may move at most F·ℓ/√d = {:.4g} per axis, "
                      "and on axis {} (grid step {:.4g}, domain {}:{}) that needs the grid step "
                      "refined by q = {} (a lattice step of {:.4g}), more than the pathwise "
                      "sampler's largest refinement {} (with q = {} a covariate may move {:.4g} on "
                      "this axis, i.e. snap_covariates ≥ {:.3g}); use a finer grid or a larger "
                      "snap_covariates",
                      fraction, p.bound, axis_name(names, a), h, lo, hi,
                      more.worst <= p.bound ? std::to_string(needed) : "> 10⁶",
                      h / static_cast<double>(needed), max_refinement, max_refinement, nodes.worst,
                      nodes.worst * std::sqrt(static_cast<double>(grid.dim())) / ell));
    }
    p.refinement.push_back(q);
    p.anchor.push_back(axis.lo);
    p.grid_step.push_back(h);
    p.first.push_back(nodes.first);
    p.last.push_back(nodes.last);
    p.worst.push_back(nodes.worst);
  }
  return p;
}

SnappedCovariates snap_covariates(const CovariateSnapPlan& p, const Eigen::MatrixXd& X) {
  require(X.cols() == p.dim(), fmt::format("snap_covariates: {} covariate column(s) for a {}-D "
                                           "plan",
                                           X.cols(), p.dim()));
  SnappedCovariates out;
  out.X = X;
  double sum = 0.0;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    double d2 = 0.0;
    for (int a = 0; a < p.dim(); ++a) {
      const auto sa = static_cast<std::size_t>(a);
      const double x = X(i, a);
      const double t = (x - p.anchor[sa]) / p.lattice_step(a);
      require(std::abs(t) < 1e15, fmt::format("snap_covariates: covariate {} is not finite or "
                                              "too far from the grid",
                                              i + 1));
      // The nearest in-domain node: the rounded index clamped, then its neighbours compared (the
      // rounding of t may be off by one at a tie).
      const long k = std::clamp(static_cast<long>(std::llround(t)), p.first[sa], p.last[sa]);
      long best = k;
      for (const long c : {k - 1, k + 1}) {
        if (c >= p.first[sa] && c <= p.last[sa] &&
            std::abs(p.node(a, c) - x) < std::abs(p.node(a, best) - x))
          best = c;
      }
      const double moved = p.node(a, best) - x;
      if (!(std::abs(moved) <= p.worst[sa] * (1 + 1e-12))) {
        throw NumericalError(fmt::format(
            "snap_covariates: covariate {} moved {:.6g} on axis {}, more than the plan's worst "
            "case {:.6g} (is it outside the declared domain?)",
            i + 1, std::abs(moved), axis_name(p.names, a), p.worst[sa]));
      }
      out.X(i, a) = p.node(a, best);
      d2 += moved * moved;
    }
    const double d = std::sqrt(d2);
    out.max_displacement = std::max(out.max_displacement, d);
    sum += d;
  }
  if (X.rows() > 0) out.mean_displacement = sum / static_cast<double>(X.rows());
  return out;
}

nlohmann::json covariate_snap_json(const CovariateSnapPlan& p) {
  std::vector<double> steps;
  for (int a = 0; a < p.dim(); ++a) steps.push_back(p.lattice_step(a));
  return {
      {"snap_covariates", p.fraction},
      {"ell", p.ell},
      {"refinement", p.refinement},
      {"lattice_step", steps},
      {"anchor", p.anchor},
      {"bound_per_axis", p.bound},
      {"worst_case_per_axis", p.worst},
      {"worst_case", p.worst_displacement()},
      {"worst_case_over_ell", p.worst_displacement() / p.ell},
      {"boundary",
       "a covariate whose nearest node lies outside the declared domain moves to the nearest node "
       "inside it (the worst case above includes that gap)"},
      {"released",
       "the exact posterior of the SNAPPED records: each covariate moved to its nearest node, "
       "inside the declared domain, of the grid's lattice refined by q per axis (Euclidean "
       "displacement ≤ worst_case ≤ snap_covariates·ℓ), before the posterior was formed"},
      {"privacy",
       "unchanged: the snap is a fixed public map of each record into the domain (q, nodes and "
       "clamping from snap_covariates, ℓ, the grid and the domain only), so neighbouring datasets "
       "stay neighbouring; the dataset identity and the ledger use the records as parsed "
       "(docs/privacy.md, snapped covariates)"}};
}

std::string describe(const CovariateSnapPlan& p) {
  return fmt::format(
      "covariates snapped to lattice nodes (grid step refined by {}, each record moved ≤ {:.3g} = "
      "{:.3g}ℓ; the exact posterior of the snapped records)",
      joined(p.refinement), p.worst_displacement(), p.worst_displacement() / p.ell);
}

}  // namespace gpdp::release
