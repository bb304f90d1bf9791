// Stage 3 of a release: L exact draws of the released path with the secure generator (or the
// seeded one, NOT private), snapped to the public lattice Λ·ℤ; the unsnapped values live on only
// in the paths' private state (kept with KeepPath, else discarded).
#include "gpdp/posterior.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/stages.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/prior.hpp"

namespace gpdp::release {

namespace {

// The fields the excursion set is read from: the released paths, optionally smoothed
// (post-processing of released values only).
Eigen::MatrixXd excursion_fields(const ReleaseRequest& q, const Evaluation& eval,
                                 const Eigen::MatrixXd& released) {
  Eigen::MatrixXd fields = released;
  if (q.smooth <= 0) return fields;
  const Eigen::MatrixXd smoothed = smooth_fields(eval.on_grid(released), *eval.grid, q.smooth);
  for (Eigen::Index i = 0; i < fields.rows(); ++i) {
    fields.row(i) = smoothed.row(eval.masked() ? eval.cells[static_cast<std::size_t>(i)] : i);
  }
  return fields;
}

// The functional mechanism (docs/privacy.md): μ_D + s·g on the evaluation points, g ~ GP(0, k)
// drawn exactly (samplers/prior.hpp), L independent draws; no sample path state.
ReleasedPaths draw_functional(const ReleaseRequest& q, const ValidatedRelease& v,
                              const privacy::GpMechanism& m, Rng& rng) {
  const Dataset& data = v.prepared.data;
  const Evaluation& eval = v.evaluation;
  const Eigen::VectorXd mean =
      Posterior(*m.kernel, data.X, data.y, {m.r, m.sigma}).mean(v.model_points);
  const bool on_grid = eval.grid.has_value() && !(v.geo && v.geo->reprojects());
  PriorSampler noise(*m.kernel, v.model_points, on_grid ? eval.grid : std::nullopt,
                     on_grid ? eval.cells : std::vector<Eigen::Index>{});
  Eigen::MatrixXd raw = (m.noise_scale * noise.draw(rng, q.draws)).colwise() + mean;
  ReleasedPaths out;
  out.sampler = "functional mechanism μ_D + s·g, g by " + noise.method();
  out.lattice = functional_granularity(m.n, m.M_Y, m.r, m.noise_scale);
  out.values = raw.unaryExpr([&](double x) { return snap(x, out.lattice); });
  raw.setZero();
  return out;
}

}  // namespace

ReleasedPaths draw_and_snap(const ReleaseRequest& q, const ValidatedRelease& v,
                            const ReleaseAccounting& a) {
  const auto& m = a.mechanism;
  const Dataset& data = v.prepared.data;
  const Evaluation& eval = v.evaluation;
  auto rng = make_rng(q.insecure_seed);
  if (m.kind == privacy::MechanismKind::Functional) {
    ReleasedPaths out = draw_functional(q, v, m, *rng);
    out.set_fields = after_the_draw([&] { return excursion_fields(q, eval, out.values); });
    out.rng = rng_description(q);
    return out;
  }
  const Posterior posterior(*m.kernel, data.X, data.y, {m.r, m.sigma});
  ReleasedPaths out;
  Eigen::MatrixXd raw(eval.points.rows(), q.draws);
  for (int l = 0; l < q.draws; ++l) {
    out.paths.emplace_back(posterior, m.eta, q.sampler);
    raw.col(l) = v.grid_sampler() ? out.paths.back().evaluate(*eval.grid, *rng)
                                  : out.paths.back().evaluate(v.model_points, *rng);
    if (l == 0) out.sampler = out.paths.back().last_method();
  }
  out.lattice = release_granularity(m.n, m.M_Y, m.r, m.sigma, m.eta);
  out.values = raw.unaryExpr([&](double x) { return snap(x, out.lattice); });
  raw.setZero();
  out.set_fields = after_the_draw([&] { return excursion_fields(q, eval, out.values); });
  out.rng = rng_description(q);
  return out;
}

}  // namespace gpdp::release
