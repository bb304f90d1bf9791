#pragma once
// The stages of a release, each a function from typed inputs to a typed output, so that one datum
// can be followed through the release in one pass (run_release() chains them):
//
//   validate      request            -> ValidatedRelease   data, domain, points, output folder
//   account       + validated        -> ReleaseAccounting  mechanism, calibration, (ε, δ), attack
//                                                          risk, record fingerprint, ledger
//                                                          pre-check (a fast refusal)
//   draw_and_snap + accounting       -> ReleasedPaths      exact draws (CSPRNG), snapped to Λ·ℤ
//   render        + released paths   -> Files              draws.csv, map, GeoJSON (memory only)
//   certify       + files            -> Certified          certificate; the ledger records the
//                                                          release durably (or refuses)
//   publish       + certified        -> ReleaseOutcome     kept path, then the folder in one rename
//
// Errors before `certify` change nothing; nothing reaches the disk before the ledger commit.
// Nothing computed from μ_D or k_D directly ever goes to the release folder.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/gis/geo_frame.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/privacy/risk.hpp"
#include "gpdp/release/covariate_snap.hpp"
#include "gpdp/release/draw_task.hpp"
#include "gpdp/release/evaluation.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/release/kept_path.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/outputs.hpp"
#include "gpdp/release/postprocess.hpp"
#include "gpdp/release/request.hpp"
#include "gpdp/release/snapping.hpp"
#include "gpdp/samplers/sample_path.hpp"

namespace gpdp::release {

// ---- 1. validate ---------------------------------------------------------------------------
struct ValidatedRelease {
  PreparedData prepared;  // the records after transform and clipping (covariates: model CRS)
  Evaluation evaluation;  // in the declared CRS (what the outputs show)
  // With a declared CRS: the declared and the model CRS (gis::GeoFrame), and the evaluation
  // points in the model CRS (the same points without reprojection).
  std::optional<gis::GeoFrame> geo;
  Points model_points;
  double center = 0.0;  // public response centring and scale
  double scale = 1.0;
  double level = 0.0;       // the threshold in model units, (t − center)/scale
  std::string release_uid;  // random, public: in the certificate and map.tif
  // --out (and --keep-path) reserved for this release (outputs.hpp), released with the last copy.
  std::shared_ptr<ReservedOutputs> reserved;
  // With snap_covariates: the public map and the snapped covariates (model CRS) the posterior is
  // formed from; `prepared` keeps the records as parsed (dataset identity, ledger, certificate).
  struct CovariateSnap {
    CovariateSnapPlan plan;
    SnappedCovariates snapped;
  };
  std::optional<CovariateSnap> covariate_snap;
  // The grid samplers may be used: the whole grid, not reprojected.
  bool grid_sampler() const { return evaluation.whole_grid() && !(geo && geo->reprojects()); }
  // The covariates the posterior is formed from (model CRS): snapped, or the records'.
  const Eigen::MatrixXd& model_covariates() const {
    return covariate_snap ? covariate_snap->snapped.X : prepared.data.X;
  }
};
ValidatedRelease validate(const ReleaseRequest& request);
// The checks of validate() that concern the public parameters of the draw and its accounting only
// (δ, L, vote cutoff, threshold, smoothing, kernel, mechanism, calibration goal).
void check_public_parameters(const ReleaseRequest& request);
// The rest of validate() on records and evaluation points already read (the evaluation in the
// declared CRS, checked against the domain): the CRS, the points in the model CRS, the level.
ValidatedRelease validated(const ReleaseRequest& request, PreparedData prepared,
                           Evaluation evaluation);

// ---- 2. account ----------------------------------------------------------------------------
struct CalibrationReport {
  CalibrationGoal goal;
  double value = 0.0;  // the solved r or η
  std::string note;
};
struct ReleaseAccounting {
  privacy::GpMechanism mechanism;  // complete: n, dim, domain, M_Y from the data; calibrated
  // A private prior mean: its Gaussian mechanism, calibrated to its fraction of the target ε
  // (the request's, or the public rule's: prior_mean_share.hpp).
  std::optional<privacy::GpMechanism> prior_mean;
  double prior_mean_fraction = 0;
  // The label statistic (request.label_statistic_fraction), calibrated.
  std::optional<privacy::GpMechanism> label_statistic;
  privacy::ResolvedBounds bounds;
  // this release's events: the private prior mean and the label statistic (if any), then L draws
  // of `mechanism`
  privacy::Accountant composition;
  privacy::Guarantee guarantee;  // this release alone, at the request's δ
  privacy::AttackRisk risk;      // ... what it allows a membership attacker
  std::optional<CalibrationReport> calibration;
  DatasetIdentity identity;  // the dataset's name and its records' fingerprint
  LedgerEntry entry;         // the ledger row this release will add
};
// Calibrates (if asked), accounts, fingerprints the records with the ledger's key, and asks the
// ledger whether the release fits (identity and budget).
ReleaseAccounting account(const ReleaseRequest& request, const ValidatedRelease& validated);
// The mechanism's part alone (no ledger: `identity` and `entry` stay empty): the complete
// mechanism, calibration, bounds, the composition of this release's events, (ε, δ), attack risk.
ReleaseAccounting account_mechanism(const ReleaseRequest& request,
                                    const ValidatedRelease& validated);
// Its first part: the complete mechanism, calibration, bounds, composition and (ε, δ), without the
// attack risk and the preview's check (`--mechanism auto` calibrates its candidates with it).
ReleaseAccounting account_composition(const ReleaseRequest& request,
                                      const ValidatedRelease& validated);
// The same without the ledger's verdict (a batch asks the ledger itself: Ledger::reserve), with
// the ledger already open.
ReleaseAccounting account(const ReleaseRequest& request, const ValidatedRelease& validated,
                          Ledger& ledger);

// ---- 3. draw and snap ----------------------------------------------------------------------
struct ReleasedPaths {
  std::vector<SamplePath> paths;  // private state (unsnapped answers), kept only with KeepPath
  Eigen::MatrixXd values;         // m x L, snapped to the lattice, model units
  Eigen::MatrixXd set_fields;     // the fields the excursion set is read from (values, smoothed)
  Eigen::VectorXd in_set;         // the released set: 1/0 per point (excursion_set)
  Eigen::VectorXd probability;    // the grid mean's P(f ≥ t) map (empty for the other mechanisms)
  std::optional<CellTable> table;    // the grid mean's released cell table (its DP output)
  std::optional<double> prior_mean;  // the GP prior's mean the fields are offset by (model units)
  Granularity lattice;
  std::string sampler;  // the exact method that drew the first path, with details
  std::string rng;      // which generator drew them
};
ReleasedPaths draw_and_snap(const ReleaseRequest& request, const ValidatedRelease& validated,
                            const ReleaseAccounting& accounting);
// The public post-processing that reads the released set from the fields (level, vote cutoff,
// smoothing on the evaluation grid).
ExcursionRule excursion_rule(const ReleaseRequest& request, const ValidatedRelease& validated);
// The same in two halves, for a draw made elsewhere (a batch's worker, draw_task.hpp): what the
// draw needs, as plain data; and the released paths from the snapped draws (lattice, smoothing).
DrawSpec draw_spec(const ReleaseRequest& request, const ValidatedRelease& validated,
                   const ReleaseAccounting& accounting);
ReleasedPaths released_paths(const ReleaseRequest& request, const ValidatedRelease& validated,
                             const ReleaseAccounting& accounting, SnappedDraws draws);

// Runs post-processing between the draw and the ledger (smoothing, rendering). The draw exists
// only in memory then: an error there records nothing and writes nothing, and its message says so.
template <class F>
auto after_the_draw(F&& step) {
  try {
    return step();
  } catch (const std::exception& e) {
    throw Error(fmt::format(
        "{} — this happened after the draw, in post-processing: nothing was recorded in the "
        "ledger and nothing was released (no privacy budget spent)",
        e.what()));
  }
}

// ---- 4. render (memory only) ---------------------------------------------------------------
using Files = std::map<std::string, std::string>;  // file name -> content
// draws.csv; with a grid map.png|svg; with a 2-D grid excursion.geojson. Functions of the
// released paths only.
Files render(const ReleaseRequest& request, const ValidatedRelease& validated,
             const ReleaseAccounting& accounting, const ReleasedPaths& released);

// ---- 5. certify ----------------------------------------------------------------------------
struct Certified {
  nlohmann::json certificate;  // without "outputs" (added by publish)
  LedgerDecision decision;
  std::optional<privacy::AttackRisk> budget_risk;  // against the whole budget, if one is set
  std::string path_id;                             // non-empty with KeepPath
  std::optional<KeptPath>
      kept;  // with KeepPath: the path's state, as its history starts in the ledger
};
// The certificate's account of the mechanism and its privacy (also PreparedRelease::describe()):
// kernel, theta, eta, mechanism, M_Y, sensitivity (lemma, Δ_n, V_n, κ, theorem), draws,
// guarantee (the composed (ε, δ) of the release), parts (each event of the composition with its
// own ε at the release's δ), privacy_record (the events as the ledger stores them), calibration.
nlohmann::json privacy_json(const ReleaseRequest& request, const ReleaseAccounting& accounting);
// Builds the certificate and records the release in the ledger in one durable transaction;
// PrivacyError (nothing recorded) when it would exceed the budget.
Certified certify(const ReleaseRequest& request, const ValidatedRelease& validated,
                  const ReleaseAccounting& accounting, const ReleasedPaths& released);
// The certificate of a release the ledger recorded before its draw (Ledger::reserve, a batch):
// `decision` is the reservation's; nothing is written to the ledger here.
Certified certify_reserved(const ReleaseRequest& request, const ValidatedRelease& validated,
                           const ReleaseAccounting& accounting, const ReleasedPaths& released,
                           const LedgerDecision& decision);

// ---- 6. publish ----------------------------------------------------------------------------
struct ReleaseOutcome {
  nlohmann::json certificate;
  nlohmann::json summary;  // what the CLI prints (also with --json)
  std::vector<std::string> files;
};
// Before certify (nothing is spent yet): the file systems of --out and --keep-path have room for
// what publish will write (ParameterError naming the parameter otherwise).
void check_room_for(const ReleaseRequest& request, const ReleasedPaths& released,
                    const Files& files);
// Writes the kept path (if any), then the release folder (files + certificate.json with every
// output's SHA-256) in one rename, then the internal evaluation maps (if asked). When the kept path
// or the folder cannot be written, what was written is removed and the error rethrown (the caller
// marks the ledger row failed: run_release()).
ReleaseOutcome publish(const ReleaseRequest& request, const ValidatedRelease& validated,
                       const ReleaseAccounting& accounting, const ReleasedPaths& released,
                       Files files, Certified certified);

}  // namespace gpdp::release
