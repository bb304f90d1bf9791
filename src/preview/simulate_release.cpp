#include "gpdp/preview/simulate_release.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/postprocess.hpp"

namespace gpdp::preview {

namespace {

std::vector<double> cutoffs(int draws) {
  std::vector<double> c;
  for (int k = 1; k <= draws; ++k) c.push_back(static_cast<double>(k) / static_cast<double>(draws));
  return c;
}

// The release's post-processing of released fields: its Gaussian filter on the grid.
Eigen::MatrixXd smoothed(const Eigen::MatrixXd& fields, const EvaluationPoints& e, double h) {
  if (!(h > 0)) return fields;
  return e.from_grid(release::smooth_fields(e.on_grid(fields), *e.grid, h));
}

// The simulated set's covariates: its rows of the evaluation points.
Points covariates(const EvaluationPoints& evaluation, const SimulatedSet& set) {
  Points X(static_cast<Eigen::Index>(set.rows.size()), evaluation.points.cols());
  for (std::size_t i = 0; i < set.rows.size(); ++i)
    X.row(static_cast<Eigen::Index>(i)) = evaluation.points.row(set.rows[i]);
  return X;
}

// The grid mean's map (release/grid_mean.hpp, the release's own post-processing): the set's cell
// sums and counts plus the shared normals, then the mean of the GP fitted to the cell means.
Eigen::VectorXd grid_mean_field(const Calibrated& c, const EvaluationPoints& e,
                                const SimulatedSet& set, const Eigen::VectorXd& normals) {
  const auto& m = c.mechanism;
  const release::CellLayout layout = release::grid_mean_layout(m);
  const Eigen::Index C = layout.size();
  require(normals.size() >= 1 + 2 * C, "preview: too few shared normals for the grid mean");
  const release::CellAggregates a = release::aggregate_cells(layout, covariates(e, set), set.y);
  const release::CellTable t{
      layout, a.sums + m.noise_scale * normals.segment(1, C),
      a.counts + privacy::grid_mean_count_noise(m) * normals.segment(1 + C, C)};
  const release::CellPosterior p = release::cell_posterior(t, m);
  return (p.posterior.mean(e.points).array() + p.prior_mean).matrix();
}

Eigen::MatrixXd released_fields(SimulatedPosterior& post, const Calibrated& c,
                                const EvaluationPoints& e, const SimulatedSet& set,
                                const SimulationDraws& d) {
  const auto& m = c.mechanism;
  if (m.kind == privacy::MechanismKind::Functional) {
    return post.solve(m.r, 0).col(0) + m.noise_scale * post.extra();
  }
  if (m.kind == privacy::MechanismKind::GridMean) return grid_mean_field(c, e, set, d.normals);
  if (c.sign) {  // the sign-clipped responses
    return post.paths(m.r, m.sigma, m.eta, c.draws, set.y.unaryExpr([](double y) {
      return static_cast<double>((y > 0) - (y < 0));
    }));
  }
  if (c.prior_mean_noise > 0) {  // m̂ = clamp(ȳ + s z), the responses re-clipped about it
    const double M = m.M_Y;
    const double m0 = std::clamp(set.y.mean() + c.prior_mean_noise * d.normals(0), -M, M);
    const Eigen::VectorXd about =
        set.y.unaryExpr([&](double y) { return std::clamp(y - m0, -M, M); });
    return (post.paths(m.r, m.sigma, m.eta, c.draws, about).array() + m0).matrix();
  }
  return post.paths(m.r, m.sigma, m.eta, c.draws);
}

}  // namespace

SimulatedPosterior::SimulatedPosterior(const Kernel& kernel, const EvaluationPoints& evaluation,
                                       const SimulatedSet& set, const SimulationDraws& draws)
    : set_(set),
      draws_(draws),
      distances_(covariates(evaluation, set), evaluation.points),
      ridge_(distances_, set.y) {
  ridge_.refit(kernel);
}

Eigen::MatrixXd SimulatedPosterior::solve(double r, int paths, const Eigen::VectorXd& y) {
  const auto n = static_cast<Eigen::Index>(set_.rows.size());
  Eigen::MatrixXd rhs(n, 1 + paths);
  rhs.col(0) = y.size() ? y : set_.y;
  for (int l = 0; l < paths; ++l) {
    for (Eigen::Index i = 0; i < n; ++i)
      rhs(i, 1 + l) =
          draws_.prior(set_.rows[static_cast<std::size_t>(i)], l) + r * draws_.noise(i, l);
  }
  return ridge_.apply(r, std::move(rhs));
}

Eigen::MatrixXd SimulatedPosterior::paths(double r, double sigma, double eta, int L,
                                          const Eigen::VectorXd& y) {
  require(eta == 0.0 || L == 1, "preview: added noise η is simulated for one path only");
  require(L <= draws_.noise.cols(), "preview: more paths than shared draws");
  const Eigen::MatrixXd s = solve(r, L, y);
  Eigen::MatrixXd out(s.rows(), L);
  for (int l = 0; l < L; ++l) {
    out.col(l) = s.col(0) + sigma * (draws_.prior.col(l) - s.col(1 + l));
    if (eta > 0) out.col(l) += eta * extra();
  }
  return out;
}

Eigen::VectorXd SimulatedPosterior::extra() const {
  return draws_.prior.col(draws_.prior.cols() - 1);
}

std::vector<double> bandwidths_for(const EvaluationPoints& evaluation,
                                   const std::vector<double>& nonzero) {
  std::vector<double> out{0.0};
  if (evaluation.grid && evaluation.grid->dim() == 2) {
    for (const double h : nonzero) {
      require(h > 0 && std::isfinite(h),
              fmt::format("smoothing bandwidths must be > 0, got {}", h));
      out.push_back(h);
    }
  }
  return out;
}

std::vector<Variant> enumerate_variants(const std::vector<std::vector<Calibrated>>& candidates,
                                        const std::vector<double>& bandwidths) {
  std::vector<Variant> out;
  for (std::size_t e = 0; e < candidates.size(); ++e) {
    for (std::size_t k = 0; k < candidates[e].size(); ++k) {
      const Calibrated& c = candidates[e][k];
      for (const double h : bandwidths) {
        for (const double cut : cutoffs(c.draws)) {
          Family f = c.family;
          if (f == Family::Default && h > 0) f = Family::Smoothed;
          out.push_back({e, k, h, cut, f});
        }
      }
    }
  }
  return out;
}

SimulationOutcome simulate_release(const SimulationContext& c, const SimulatedSet& set,
                                   const SimulationDraws& draws) {
  const Eigen::Index m = c.evaluation.points.rows();
  const Eigen::VectorXd weights = Eigen::VectorXd::Constant(m, 1.0 / static_cast<double>(m));
  SimulatedPosterior post(c.kernel, c.evaluation, set, draws);
  SimulationOutcome out;
  const Eigen::MatrixXd reference_paths = post.paths(c.r_reference, c.sigma, 0.0, 1);
  const Eigen::MatrixXd reference_mean = post.solve(c.r_reference, 0);
  const Eigen::VectorXd truth = experiments::indicator_at_least(reference_mean.col(0), c.level);
  out.reference_share = truth.mean();
  out.nonprivate_iou = experiments::intersection_over_union(
      experiments::indicator_at_least(reference_paths.col(0), c.level), truth, weights);

  out.iou.resize(static_cast<Eigen::Index>(c.variants.size()));
  out.bce = Eigen::VectorXd::Constant(out.iou.size(), std::nan(""));
  Eigen::Index at = 0;  // walks the variants in enumerate_variants' order
  for (std::size_t e = 0; e < c.candidates.size(); ++e) {
    for (const Calibrated& cand : c.candidates[e]) {
      const Eigen::MatrixXd fields = released_fields(post, cand, c.evaluation, set, draws);
      for (const double h : c.bandwidths) {
        const Eigen::VectorXd votes =
            release::vote_fraction(smoothed(fields, c.evaluation, h), c.level);
        for (const double cut : cutoffs(cand.draws)) {
          require(at < out.iou.size() && c.variants[static_cast<std::size_t>(at)].smooth == h &&
                      c.variants[static_cast<std::size_t>(at)].cutoff == cut,
                  "preview: variant order mismatch");
          out.iou(at) =
              experiments::intersection_over_union(release::vote_set(votes, cut), truth, weights);
          if (cand.draws > 1) {  // the vote map as probabilities (Krichevsky–Trofimov)
            const double L = cand.draws;
            out.bce(at) = experiments::integrated_bce(
                ((votes.array() * L + 0.5) / (L + 1.0)).matrix(), truth, weights);
          }
          ++at;
        }
      }
    }
  }
  require(at == out.iou.size(), "preview: not every variant was simulated");
  return out;
}

}  // namespace gpdp::preview
