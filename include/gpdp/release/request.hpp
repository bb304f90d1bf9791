#pragma once
// What `gpdp release` is asked to do, as types: the private input, the mechanism's public
// parameters, the accounting (δ, conversion, optional calibration goal), where to evaluate, the
// sampler, the outputs and the ledger. Library callers (the CLI, Python, later front ends) fill
// one ReleaseRequest and hand it to run_release() or to the stages of stages.hpp.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpdp/grid.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/privacy/filter.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/path_store.hpp"
#include "gpdp/samplers/sampler.hpp"

namespace gpdp::release {

enum class ImageFormat { Png, Svg };
ImageFormat parse_image_format(const std::string& name);  // "png" | "svg"
std::string to_string(ImageFormat format);                // the file extension

// Where the released path is evaluated: a regular grid (a 2-D grid may be masked by a public CSV
// of points: only cells within half a step of one of them are evaluated), or the points of a CSV
// file (columns named like the data's covariates, or x1..xd).
struct GridPoints {
  Grid grid;
  std::string mask_file;  // empty: no mask
};
struct FilePoints {
  std::string file;
};
using EvaluationSpec = std::variant<GridPoints, FilePoints>;

// Calibration: the smallest r (or η) whose ε at the release's δ and conversion meets the target.
struct CalibrationGoal {
  privacy::CalibrationParameter parameter = privacy::CalibrationParameter::R;
  double target_epsilon = 1.0;
};

// The GP prior's mean (docs/privacy.md "A private prior mean"): a public value in response units
// (like the threshold; free), or a private estimate of the mean of the clipped responses by the
// Gaussian mechanism, spending `fraction` of the target ε (or, when none is given, the public
// rule's share: prior_mean_share). The GP mechanism then runs on the responses re-centred at it and
// re-clipped to ±M_Y, and the released field is m₀ + its output.
struct PriorMeanSpec {
  bool private_estimate = false;   // "dp[:FRACTION]"
  std::optional<double> fraction;  // of the target ε (private); none: the public rule
  double value = 0.0;              // response units (public)
  // Private: the noise s of the mean, given (a preview's configuration) instead of calibrated.
  std::optional<double> noise;
};
// "dp", "dp:0.2" or a number (response units); InputError otherwise.
PriorMeanSpec parse_prior_mean(const std::string& text);

// Keep the released path's private state for later queries (`gpdp query`), encrypted with `key`.
struct KeepPath {
  std::string file;
  PathKey key;
};

// A release configured by `gpdp preview` (gpdp release --config-from, preview/release_config.hpp):
// the data's n must be the one the preview simulated and the release's own ε(δ) within the target
// (else nothing is drawn); the certificate records it all.
struct PreviewOrigin {
  std::string file;    // the preview file's name
  std::string sha256;  // of its bytes
  double target_epsilon = 0.0;
  long n = 0;                    // the private n the preview simulated
  nlohmann::json config;         // the chosen configuration, as in the file
  nlohmann::json predicted_iou;  // {"mean", "lo", "hi"} over the preview's held-out simulations
};

// `--mechanism auto` (auto_mechanism.hpp, docs/privacy.md "Choosing a mechanism from a private
// summary"): a DP summary at `choose_fraction` of the target ε calibrates simulations that pick one
// of a public list of candidates; the total (ε, δ) covers the choosing.
struct AutoSpec {
  double choose_fraction = 0.1;  // of the target ε, spent on the summary
  // Refuse (charging only the summary) when the best candidate is not predicted better than the
  // trivial map by the stated margin.
  bool refuse_if_useless = false;
};

// What a release chosen by `--mechanism auto` adds to the chosen candidate's own accounting: the
// summary's events, every candidate's composition (public, fixed before the data are read) and the
// choice's report (the certificate's "auto" block). The release's composition is then
// privacy::summary_then_choice(summary, candidates), not the candidate's own.
struct AutoSelection {
  privacy::Accountant summary;
  std::vector<privacy::Accountant> candidates;
  nlohmann::json report;
};

struct ReleaseRequest {
  std::string data_path;
  InputSpec input;
  // The budget belongs to this named dataset (letters, digits, - _ .) and to its records
  // (dataset_identity.hpp); records already released under another name are refused unless
  // new_dataset_despite_overlap is set (the certificate then records it).
  std::string dataset;
  bool new_dataset_despite_overlap = false;
  // The public parameters of ONE draw: kernel (required), r, σ, η, sensitivity lemma and the
  // optional κ / V_n / Δ_n overrides. n, dim, domain and M_Y are set from the data and `input`.
  privacy::GpMechanism mechanism;
  int draws = 1;       // L
  double delta = 0.0;  // of the (ε, δ) certificate, in (0, 1)
  privacy::Conversion conversion = privacy::kDefaultConversion;
  std::optional<CalibrationGoal> calibration;  // solves r or η; the given value is then ignored
  // Excursion threshold t, in response units after the transform (before centring/scaling).
  double threshold = 0.0;
  double vote_cutoff = 0.5;  // released set = {vote fraction ≥ c} when L > 1
  // The grid mean's public cells per axis (empty: the default rule, grid_mean.hpp
  // grid_mean_cells).
  std::vector<long> cells;
  // The grid mean's released map (post-processing, free; none: GridMap::Gp).
  std::optional<GridMap> grid_map;
  std::optional<PriorMeanSpec> prior_mean;  // the GP mechanisms only; none: mean 0 (at the centre)
  // The calibrated preview's label statistic (label_disagreement.hpp), drawn beside the mechanism:
  // its noise calibrated alone to this fraction of the target ε(δ), the mechanism then to the rest
  // (their composition meets the target). None: not drawn. Set by `gpdp preview
  // --calibrate-epsilon` for auto's summary only, not an option of a release.
  std::optional<double> label_statistic_fraction;
  // Post-processing before thresholding (2-D grids): Gaussian filter of this bandwidth in
  // coordinate units (paper App. D.1); 0 = none.
  double smooth = 0.0;
  EvaluationSpec evaluation = FilePoints{};
  SamplerMethod sampler = SamplerMethod::Auto;
  // Snap the training covariates to a fine lattice of the evaluation grid before the posterior is
  // formed, each moving at most this fraction F of ℓ (covariate_snap.hpp): the posterior-sample
  // mechanism on a whole grid only; the released map is the exact posterior of the snapped records.
  std::optional<double> snap_covariates;
  std::string out_dir;
  ImageFormat image_format = ImageFormat::Png;
  std::string ledger_path;            // required
  std::string ledger_key_path;        // empty: <ledger>.key
  std::optional<Budget> budget;       // fixes the dataset's budget at its first release
  std::vector<double> budget_orders;  // the filter's orders (empty: chosen when it is created)
  std::optional<std::uint64_t> insecure_seed;  // reproducible and NOT PRIVATE
  std::optional<KeepPath> keep_path;
  std::string internal_eval_dir;         // non-private p_D / μ_D maps, watermarked; never out_dir
  std::optional<PreviewOrigin> preview;  // the public parameters came from a preview
  // `--mechanism auto`: the mechanism's kernel, ℓ, r, σ and the calibration goal are the
  // candidates' public inputs; auto_mechanism.hpp plans, chooses and fills `selection`.
  std::optional<AutoSpec> auto_mechanism;
  // Set on the chosen candidate's request only (never by a caller).
  std::shared_ptr<const AutoSelection> selection;
};

// "nx[,ny,...]": the grid mean's cells per axis, each ≥ 1 (InputError otherwise).
std::vector<long> parse_cells(const std::string& text);

// Which generator the request draws with, as the certificate and the ledger say it.
std::string rng_description(const ReleaseRequest& request);
std::string rng_description(const std::optional<std::uint64_t>& insecure_seed);

}  // namespace gpdp::release
