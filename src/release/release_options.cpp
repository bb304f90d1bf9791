#include "gpdp/release/release_options.hpp"

#include "gpdp/options/mechanism_flags.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "options/model_options.hpp"

namespace gpdp::release {

namespace {
using options::concat;
using options::option;
using options::OptionScope;
using options::OptionType;

// The flags of `gpdp release` beyond the shared groups, in --help order, up to the path key.
std::vector<options::OptionSpec> release_own_options() {
  return {
      option("--lemma", OptionType::Text, nullptr, "Deprecated: the old spelling of --sensitivity"),
      option("--threshold", OptionType::Real, nullptr,
             "Excursion threshold t in response units (after --transform)")
          .with_alias("-t")
          .as_required(),
      option("--vote-cutoff", OptionType::Real, 0.5,
             "With L > 1: the released set is {fraction of paths ≥ t is ≥ c}"),
      option("--smooth", OptionType::Real, 0.0,
             "2-D grids: Gaussian filter of this bandwidth (coordinate units) applied to the "
             "released paths before thresholding (post-processing)"),
      option("--cells", OptionType::Text, nullptr,
             "--mechanism grid-mean: public cells per axis, nx[,ny] (default: the UG rule of "
             "Qardaji, Yang & Li 2013 capped at 5 records per cell, min(n·ε/10, n/5) cells in "
             "all, at most 2500)"),
      option("--grid-map", OptionType::Text, nullptr,
             "--mechanism grid-mean: the released map, post-processing of the same noisy cell "
             "table at no privacy cost: gp (default; the mean of a GP fitted to the noisy cell "
             "means, with a probability map) or cells (each point's own noisy cell mean S̃/Ñ, "
             "the classical noisy grid; no probability map, no --keep-path)"),
      option("--prior-mean", OptionType::Text, nullptr,
             "GP prior mean (posterior-sample, functional): a value in response units (public, "
             "free), or dp[:FRACTION]: a Gaussian-mechanism estimate of the mean of the clipped "
             "responses spending FRACTION of --target-epsilon (default: the public rule, the "
             "share that makes its noise 0.1·M_Y, within [0.1, 0.5]); the responses are "
             "re-centred at it and re-clipped (docs/privacy.md)"),
      option("--mask", OptionType::Text, nullptr,
             "Public CSV of points (same covariate columns): with --grid2d, evaluate only the "
             "grid cells within half a step of one of them; the map leaves the rest blank")
          .with_parameter("mask_file"),
      option("--sampler", OptionType::Text, "auto",
             "Exact sampler: auto, dense, markov (1-D exponential kernel) or pathwise (a whole "
             "grid, scattered covariates included); auto picks the fastest exact one; an "
             "inapplicable choice is an error; the certificate names it and why"),
      option("--snap-covariates", OptionType::Real, nullptr,
             "Posterior-sample mechanism on a whole grid: move each training covariate to the "
             "nearest node (inside --domain) of the grid's lattice refined by the smallest q ≤ 8 "
             "per axis that keeps every move ≤ F·ℓ/√d per axis (F = this value, e.g. 0.05), so "
             "the pathwise sampler draws exactly at grid speed; the map is then the exact "
             "posterior of the snapped records (a public per-record map: ε unchanged; the "
             "certificate records q and the displacements)"),
      option("--out", OptionType::Text, nullptr, "Release folder (must not exist or be empty)")
          .with_alias("-o")
          .with_parameter("out_dir")
          .as_required(),
      option("--image", OptionType::Text, "png", "Map format: png or svg")
          .with_parameter("image_format"),
      option("--dataset", OptionType::Text, nullptr,
             "Name of the dataset the budget belongs to (letters, digits, - _ .); the same "
             "records under this name share one budget, whatever the file layout")
          .as_required(),
      option("--new-dataset-despite-overlap", OptionType::Flag, false,
             "Release under --dataset although its records, its file's rows or its covariates "
             "were already released under another name (recorded in the certificate)"),
      option("--ledger", OptionType::Text, nullptr, "Budget ledger (SQLite; created if missing)")
          .as_required(),
      option("--ledger-key", OptionType::Text, nullptr,
             "Key of the ledger's record fingerprints (default: <ledger>.key, created with the "
             "ledger; never stored in it)"),
      option("--target-epsilon", OptionType::Real, nullptr,
             "Calibrate: the smallest r (or η, see --solve) with ε ≤ this"),
      option("--solve", OptionType::Text, "r",
             "What --target-epsilon solves for: r, eta or sigma (posterior-sample), noise "
             "(functional; the grid mean's only choice, its default)"),
      option("--budget-epsilon", OptionType::Real, nullptr,
             "Total ε budget of this dataset (fixed at its first release)"),
      option("--budget-delta", OptionType::Real, nullptr, "Total δ budget of this dataset"),
      option("--budget-orders", OptionType::RealList, nullptr,
             "Rényi orders of the budget's filter, fixed with the budget (default: the one order "
             "at which the budget holds the most releases like the first)"),
      option("--config-from", OptionType::Text, nullptr,
             "A gpdp preview's preview.json: release with exactly the configuration it chose for "
             "--target-epsilon (mechanism, kernel, ℓ, r, σ, η, L, vote cutoff, smoothing, "
             "sensitivity, conversion; no calibration). Refused if the data's n, --M-Y or "
             "--delta differ from the preview's; the certificate records the file's SHA-256 and "
             "the predicted IoU"),
      option("--choose-fraction", OptionType::Real, 0.1,
             "--mechanism auto: the fraction of --target-epsilon spent on the private summary "
             "that calibrates the choice (docs/privacy.md)"),
      option("--refuse-if-useless", OptionType::Flag, false,
             "--mechanism auto: refuse when no candidate is predicted better than the trivial "
             "map (nowhere/everywhere exceeds); only the summary's ε is then charged"),
      option("--insecure-seed", OptionType::Integer, nullptr,
             "Seed the RNG (reproducible, NOT PRIVATE: the certificate says so)"),
  };
}

// The kept path and the release's other outputs, after the path key (path_key_options()).
std::vector<options::OptionSpec> output_options() {
  return {
      option("--keep-path", OptionType::Text, nullptr,
             "Keep the released path's state (mode 0600, encrypted with --path-key or "
             "--path-passphrase-env) for later 'gpdp query'; a new file (a kept path is never "
             "overwritten), outside --out"),
      option("--internal-eval", OptionType::Text, nullptr,
             "Also write the NON-PRIVATE posterior maps (μ_D, p_D), watermarked NOT FOR RELEASE, "
             "into this folder (never --out)")
          .with_parameter("internal_eval_dir"),
      option("--json", OptionType::Flag, false, "Print the summary as JSON")
          .in_scope(OptionScope::Cli),
  };
}

}  // namespace

std::vector<options::OptionSpec> data_options(bool data_required) {
  auto data = option("--data", OptionType::Text, nullptr,
                     "Training data CSV with a header: covariate columns and a response");
  return {
      data_required ? data.as_required() : data,
      option("--x", OptionType::TextList, nullptr, "Covariate column names (default: x1, x2, ...)"),
      option("--y", OptionType::Text, "y", "Response column name")};
}

std::vector<options::OptionSpec> input_options() {
  return {
      option("--config", OptionType::Text, nullptr,
             "JSON input description: x, y, domain, M_Y, policy, transform, center, scale, sign "
             "(flags given on the command line win)"),
      option("--domain", OptionType::Text, nullptr,
             "Declared covariate domain lo:hi per axis, e.g. 0:1,0:1 (public; never inferred "
             "from the data; a covariate outside it is an error)"),
      option("--M-Y", OptionType::Real, 1.0, "Response bound M_Y: the guarantee needs |y| ≤ M_Y"),
      option("--response-policy", OptionType::Text, "clip",
             "clip (clip to ±M_Y and report the count) or reject (error on |y| > M_Y)")
          .with_parameter("policy"),
      option("--transform", OptionType::Text, "none",
             "Public response transform before centring: none or log"),
      option("--center", OptionType::Real, 0.0, "Public centring C: y ← (y − C)/B before clipping"),
      option("--scale", OptionType::Real, 1.0, "Public scale B > 0: y ← (y − C)/B before clipping"),
      option("--sign", OptionType::Flag, false,
             "Public sign-clipped response: y ← sign((y − C)/B) ∈ {−1, 0, 1} before clipping "
             "(M_Y = 1 suffices)"),
      option("--crs", OptionType::Text, nullptr,
             "Coordinate reference system of the covariates, domain, grid, mask and points "
             "(AUTH:CODE, 2-D, e.g. EPSG:28992; geographic ones such as EPSG:4326 are projected "
             "before modelling). Without it coordinates are unitless and no RFC 7946 GeoJSON is "
             "written"),
      option("--model-crs", OptionType::Text, nullptr,
             "With a geographic --crs: the projected CRS to model in (default: the UTM zone of "
             "the domain's centre)"),
  };
}

// One library parameter, the evaluation, set by whichever of the three is given.
std::vector<options::OptionSpec> points_options() {
  return {option("--points", OptionType::Text, nullptr,
                 "CSV of query points (columns x1..xd, or the --x names)")
              .with_parameter("evaluation"),
          option("--grid", OptionType::Text, nullptr, "1-D grid lo:hi:count, e.g. 0:1:800")
              .with_parameter("evaluation"),
          option("--grid2d", OptionType::Text, nullptr,
                 "2-D grid lo:hi:nx,lo:hi:ny, e.g. 0:1:512,0:1:512")
              .with_parameter("evaluation")};
}

// One library parameter, the path key, from a key file or a passphrase.
std::vector<options::OptionSpec> path_key_options() {
  return {option("--path-key", OptionType::Text, nullptr,
                 "Key file (32 bytes or 64 hex digits) encrypting the kept path")
              .with_parameter("path_key"),
          option("--path-passphrase-env", OptionType::Text, nullptr,
                 "Name of an environment variable holding a passphrase for the kept path")
              .with_parameter("path_key")};
}

std::vector<options::OptionSpec> release_options() {
  auto specs = concat(data_options(), input_options());
  specs = concat(specs, options::kernel_options("exp", 1.0));
  specs = concat(specs, options::hyper_options(1.0, 1.0, 0.0));
  specs = concat(specs, options::mechanism_options(options::MechanismFlagSet::FromData));
  specs = concat(specs,
                 options::accounting_options(1, privacy::to_string(privacy::kDefaultConversion)));
  specs = concat(specs, points_options());
  specs = concat(specs, release_own_options());
  specs = concat(specs, path_key_options());
  return concat(specs, output_options());
}

}  // namespace gpdp::release
