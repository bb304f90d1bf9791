// Stage 3 of a release: L exact draws of the released path with the secure generator (or the
// seeded one, NOT private), snapped to the public lattice Λ·ℤ by the release's map mechanism
// (map_mechanism.hpp, through draw_task.hpp: the same draw a batch's workers make), then the
// released set read from them (postprocess.hpp ExcursionRule); the unsnapped values live on only
// in the paths' private state (kept with KeepPath, else discarded).
#include "gpdp/release/draw_task.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/stages.hpp"

namespace gpdp::release {

ExcursionRule excursion_rule(const ReleaseRequest& q, const ValidatedRelease& v) {
  return {v.level, q.vote_cutoff, q.smooth, v.evaluation.grid, v.evaluation.cells};
}

DrawSpec draw_spec(const ReleaseRequest& q, const ValidatedRelease& v, const ReleaseAccounting& a) {
  DrawSpec s;
  s.X = v.model_covariates();  // snapped with snap_covariates
  s.y = v.prepared.data.y;
  s.mechanism = a.mechanism;
  s.points = v.model_points;
  const Evaluation& eval = v.evaluation;
  if (eval.grid && !(v.geo && v.geo->reprojects())) {  // the grid is a grid in the model CRS
    s.grid = eval.grid;
    s.cells = eval.cells;
  }
  s.draws = q.draws;
  s.level = v.level;
  s.grid_map = q.grid_map.value_or(GridMap::Gp);
  if (q.prior_mean) {
    s.unclipped = unclipped_responses(v.prepared, q.input);
    if (q.prior_mean->private_estimate) {
      s.prior_mean_noise = a.prior_mean->noise_scale;
    } else {
      s.prior_mean = (q.prior_mean->value - v.center) / v.scale;
    }
  }
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
  if (v.covariate_snap) out.sampler = describe(v.covariate_snap->plan) + "; " + out.sampler;
  out.rng = std::move(draws.rng);
  out.probability = std::move(draws.probability);
  out.table = std::move(draws.table);
  out.prior_mean = draws.prior_mean;
  const ExcursionRule rule = excursion_rule(q, v);
  after_the_draw([&] {
    out.set_fields = excursion_fields(rule, out.values);
    out.in_set = excursion_set(rule, out.set_fields);
  });
  return out;
}

ReleasedPaths draw_and_snap(const ReleaseRequest& q, const ValidatedRelease& v,
                            const ReleaseAccounting& a) {
  return released_paths(q, v, a, draw_snapped(draw_spec(q, v, a), q.keep_path.has_value()));
}

}  // namespace gpdp::release
