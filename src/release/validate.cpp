// Stage 1 of a release: every check that needs no randomness and spends no budget.
#include <fmt/format.h>
#include <unistd.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/release/dataset_identity.hpp"
#include "gpdp/release/outputs.hpp"
#include "gpdp/release/stages.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/pathwise.hpp"

namespace gpdp::release {

namespace {

// snap_covariates: what it needs of the request alone (the grid is checked in validated()).
void check_snap_covariates(const ReleaseRequest& q) {
  const double f = *q.snap_covariates;
  require_parameter(std::isfinite(f) && f > 0 && f <= 1, "snap_covariates",
                    fmt::format("snap_covariates must be a fraction of ℓ in (0, 1], got {}", f));
  require_parameter(q.mechanism.kind == privacy::MechanismKind::PosteriorSample, "snap_covariates",
                    fmt::format("snap_covariates applies to the posterior-sample mechanism drawn "
                                "on a grid, not to mechanism {}",
                                privacy::to_string(q.mechanism.kind)));
  require_parameter(q.sampler == SamplerMethod::Auto || q.sampler == SamplerMethod::Pathwise,
                    "snap_covariates",
                    fmt::format("snap_covariates puts the covariates on a lattice for the pathwise "
                                "sampler; sampler {} does not need it (use auto or pathwise)",
                                to_string(q.sampler)));
  require_parameter(q.mechanism.lemma != privacy::SensitivityLemma::B8, "snap_covariates",
                    "snap_covariates cannot be used with sensitivity b8: its noiseless responses "
                    "y = f*(x) would no longer be f* at the snapped covariates");
  if (q.keep_path) {
    throw ParameterError({"snap_covariates", "keep_path"},
                         "snap_covariates cannot be used with keep_path yet: later queries "
                         "condition on the records as parsed, not on the snapped ones");
  }
}

// The snapping map (public: F, ℓ, the grid, the domain) and the snapped covariates.
ValidatedRelease::CovariateSnap snapped_covariates(const ReleaseRequest& q,
                                                   const ValidatedRelease& v) {
  require_parameter(v.evaluation.grid.has_value(), "snap_covariates",
                    "snap_covariates needs a grid (grid or grid2d): it snaps to the grid's "
                    "lattice; the points of a file are drawn without it");
  require_parameter(v.grid_sampler(), "snap_covariates",
                    v.evaluation.whole_grid()
                        ? "snap_covariates needs the grid in the model CRS (this CRS is "
                          "reprojected, so no grid sampler applies)"
                        : "snap_covariates needs the whole grid (a mask leaves the grid samplers "
                          "out)");
  const CovariateSnapPlan plan = plan_covariate_snap(
      *q.snap_covariates, q.mechanism.kernel->lengthscale(), *v.evaluation.grid, *q.input.domain,
      PathwiseOptions{}.max_refinement, v.prepared.data.covariate_names);
  return {plan, snap_covariates(plan, v.prepared.data.X)};
}

}  // namespace

void check_public_parameters(const ReleaseRequest& q) {
  require_parameter(q.delta > 0 && q.delta < 1, "delta",
                    fmt::format("delta must lie in (0, 1), got {}", q.delta));
  require_parameter(q.draws >= 1, "draws", fmt::format("draws must be ≥ 1, got {}", q.draws));
  require_parameter(q.vote_cutoff > 0 && q.vote_cutoff <= 1, "vote_cutoff",
                    fmt::format("vote_cutoff must lie in (0, 1], got {}", q.vote_cutoff));
  require_parameter(std::isfinite(q.threshold), "threshold", "threshold must be finite");
  require_parameter(std::isfinite(q.smooth) && q.smooth >= 0, "smooth",
                    fmt::format("smooth must be a bandwidth ≥ 0, got {}", q.smooth));
  require_parameter(q.mechanism.kernel.has_value(), "kernel", "kernel must be given");
  const bool functional = q.mechanism.kind == privacy::MechanismKind::Functional;
  const bool grid_mean = q.mechanism.kind == privacy::MechanismKind::GridMean;
  if (grid_mean) {
    require_parameter(q.draws == 1, "draws",
                      fmt::format("the grid mean releases one map (its post-processing GP's mean); "
                                  "draws must be 1, got {}",
                                  q.draws));
    require_parameter(q.mechanism.eta == 0, "eta", "eta belongs to the posterior-sample mechanism");
  }
  require_parameter(q.cells.empty() || grid_mean, "cells", "cells belong to the grid mean");
  require_parameter(!q.grid_map || grid_mean, "grid_map", "grid_map belongs to the grid mean");
  require_parameter(q.grid_map != GridMap::Cells || !q.keep_path, "keep_path",
                    "keep_path: the grid mean's cells map has no sample path to keep (the lazy "
                    "path is the GP map's: grid_map gp)");
  if (q.prior_mean) {
    require_parameter(!grid_mean, "prior_mean",
                      "prior_mean: the grid mean has its own (the released sums over n)");
    require_parameter(
        !q.prior_mean->private_estimate || q.calibration.has_value() || q.prior_mean->noise,
        "prior_mean",
        "prior_mean dp[:FRACTION] spends a fraction of the target ε: it needs target_epsilon");
    require_parameter(std::isfinite(q.prior_mean->value), "prior_mean",
                      "prior_mean must be finite");
  }
  for (const long k : q.cells)
    require_parameter(k >= 1, "cells", fmt::format("cells: each count must be ≥ 1, got {}", k));
  if (functional) {
    require_parameter(q.mechanism.eta == 0, "eta",
                      "eta belongs to the posterior-sample mechanism (the functional mechanism's "
                      "noise is its noise_scale s)");
    require_parameter(!q.keep_path, "keep_path",
                      "keep_path: the functional mechanism releases μ_D + s·g on the evaluation "
                      "points only; there is no sample path to keep for later queries");
  }
  if (q.snap_covariates) check_snap_covariates(q);
  require_parameter(std::isfinite(q.mechanism.sigma), "sigma",
                    "sigma must be finite for a release (σ = ∞ is an accounting limit only)");
  if (q.calibration) {
    const auto p = q.calibration->parameter;
    if (functional || grid_mean) {
      require_parameter(
          p == privacy::CalibrationParameter::Noise, "solve",
          fmt::format("the {} calibrates its noise scale: solve must be noise, got {}",
                      functional ? "functional mechanism" : "grid mean", privacy::to_string(p)));
    } else {
      require_parameter(
          p == privacy::CalibrationParameter::R || p == privacy::CalibrationParameter::Eta ||
              p == privacy::CalibrationParameter::Sigma,
          "solve", fmt::format("solve must be r, eta or sigma, got {}", privacy::to_string(p)));
    }
    require_parameter(
        std::isfinite(q.calibration->target_epsilon) && q.calibration->target_epsilon > 0,
        "target_epsilon",
        fmt::format("target_epsilon must be positive and finite, got {}",
                    q.calibration->target_epsilon));
  }
}

namespace {

// The draws, their snapped values, the fields of the set and the maps hold a few m x L matrices:
// refuse what this machine's memory cannot hold before starting (not a bad_alloc midway).
void check_memory(const ReleaseRequest& q, Eigen::Index points) {
  const double needed = 4.0 * 8.0 * static_cast<double>(points) * q.draws;
  const double memory =
      static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGESIZE));
  require_parameter(memory <= 0 || needed <= memory, "draws",
                    fmt::format("{} draws at {} points need about {:.3g} GB, more than this "
                                "machine's {:.3g} GB of memory; ask for fewer draws or points",
                                q.draws, points, needed / 1e9, memory / 1e9));
}

// The dataset, the ledger, the release folder, and the private folders that must stay out of it.
void check_target(const ReleaseRequest& q) {
  check_dataset_name(q.dataset);
  require_parameter(!q.ledger_path.empty(), "ledger",
                    "ledger (the SQLite file that keeps the privacy budget) is required");
  check_output_dir(q.out_dir);
  if (q.keep_path && path_within(q.keep_path->file, q.out_dir)) {
    throw ParameterError({"keep_path", "out_dir"},
                         "keep_path must lie outside out_dir (the path state is private, the "
                         "release folder public)");
  }
  if (q.keep_path) check_keep_path(q.keep_path->file);
  if (!q.internal_eval_dir.empty() && (path_within(q.internal_eval_dir, q.out_dir) ||
                                       path_within(q.out_dir, q.internal_eval_dir))) {
    throw ParameterError({"internal_eval_dir", "out_dir"},
                         "internal_eval_dir must be separate from out_dir: non-private maps "
                         "never enter a release folder");
  }
}

}  // namespace

ValidatedRelease validate(const ReleaseRequest& q) {
  check_public_parameters(q);
  check_target(q);
  PreparedData prepared = prepare_data(q.data_path, q.input);
  Evaluation evaluation =
      load_evaluation(q.evaluation, prepared.data.covariate_names, *q.input.domain);
  ValidatedRelease v = validated(q, std::move(prepared), std::move(evaluation));
  // Last, once everything else passed: the outputs are this release's until it ends.
  v.reserved = std::make_shared<ReservedOutputs>(q.out_dir, q.keep_path ? q.keep_path->file : "");
  return v;
}

ValidatedRelease validated(const ReleaseRequest& q, PreparedData prepared, Evaluation evaluation) {
  ValidatedRelease v;
  v.prepared = std::move(prepared);
  v.evaluation = std::move(evaluation);
  require_parameter(q.smooth == 0 || (v.evaluation.grid && v.evaluation.grid->dim() == 2), "smooth",
                    "smooth needs a 2-D grid");
  check_memory(q, v.evaluation.points.rows());
  require_parameter(
      q.cells.empty() || static_cast<int>(q.cells.size()) == v.prepared.data.dim(), "cells",
      fmt::format("cells: {} count(s) for {} covariate(s)", q.cells.size(), v.prepared.data.dim()));
  if (!q.input.crs.empty()) v.geo.emplace(q.input.crs, q.input.model_crs, *q.input.domain);
  v.model_points =
      v.geo ? v.geo->to_model(v.evaluation.points, "evaluation points") : v.evaluation.points;
  if (q.snap_covariates) v.covariate_snap = snapped_covariates(q, v);
  v.release_uid = random_hex_id();
  v.center = q.input.center.value_or(0.0);
  v.scale = q.input.scale.value_or(1.0);
  v.level = (q.threshold - v.center) / v.scale;
  return v;
}

}  // namespace gpdp::release
