// Stage 3 of a release: L exact draws of the released path with the secure generator (or the
// seeded one, NOT private), snapped to the public lattice Λ·ℤ (draw_task.hpp: the same draw a
// batch's workers make); the unsnapped values live on only in the paths' private state (kept with
// KeepPath, else discarded).
#include "gpdp/release/draw_task.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/stages.hpp"

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

}  // namespace

DrawSpec draw_spec(const ReleaseRequest& q, const ValidatedRelease& v, const ReleaseAccounting& a) {
  DrawSpec s;
  s.X = v.prepared.data.X;
  s.y = v.prepared.data.y;
  s.mechanism = a.mechanism;
  s.points = v.model_points;
  const Evaluation& eval = v.evaluation;
  if (eval.grid && !(v.geo && v.geo->reprojects())) {  // the grid is a grid in the model CRS
    s.grid = eval.grid;
    s.cells = eval.cells;
  }
  s.draws = q.draws;
  s.sampler = q.sampler;
  s.insecure_seed = q.insecure_seed;
  return s;
}

ReleasedPaths released_paths(const ReleaseRequest& q, const ValidatedRelease& v,
                             const ReleaseAccounting& a, SnappedDraws draws) {
  ReleasedPaths out;
  out.paths = std::move(draws.paths);
  out.values = std::move(draws.values);
  out.lattice = lattice_of(a.mechanism);
  out.sampler = std::move(draws.sampler);
  out.rng = std::move(draws.rng);
  out.set_fields = after_the_draw([&] { return excursion_fields(q, v.evaluation, out.values); });
  return out;
}

ReleasedPaths draw_and_snap(const ReleaseRequest& q, const ValidatedRelease& v,
                            const ReleaseAccounting& a) {
  return released_paths(q, v, a, draw_snapped(draw_spec(q, v, a), q.keep_path.has_value()));
}

}  // namespace gpdp::release
