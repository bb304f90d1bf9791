#pragma once
// `gpdp release` as a library call: private data in, released sample paths + excursion map +
// certificate out, with the privacy budget enforced by the ledger (docs/mathematics.md §1–2).
//
// Order of events (docs/security.md):
//   1. validate everything (data, domain, parameters, output folder) — errors change nothing;
//   2. account: the mechanism's RDP curve → (ε, δ) (optionally calibrating r or η first);
//   3. draw the paths in memory with the secure RNG, snap them to the public lattice, and render
//      every output (CSV, map, GeoJSON, certificate) in memory;
//   4. ledger: check the budget and record the release in one durable transaction;
//   5. only then write the outputs into a staging folder and rename it to --out in one step.
// Nothing computed from μ_D or k_D directly ever goes to --out.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/grid.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/bounds.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/path_store.hpp"
#include "gpdp/sampler.hpp"

namespace gpdp::release {

struct ReleaseRequest {
  std::string data_path;
  InputSpec input;
  std::string kernel = "exp";
  double ell = 1.0;
  double r = 1.0;
  double sigma = 1.0;
  double eta = 0.0;
  privacy::SensitivityLemma lemma = privacy::SensitivityLemma::B1;
  int draws = 1;  // L
  double delta = 0.0;
  privacy::Conversion conversion = privacy::Conversion::CKS;
  // Calibration: smallest r (or η) with ε(δ) ≤ target_epsilon; the value given is ignored.
  std::optional<double> target_epsilon;
  std::string solve;  // "r" | "eta" (with target_epsilon)
  // Excursion threshold t, in response units after the transform (before centring/scaling).
  double threshold = 0.0;
  double vote_cutoff = 0.5;  // released set = {vote fraction ≥ c} when L > 1
  // Post-processing before thresholding (2-D grids): Gaussian filter of this bandwidth in
  // coordinate units (paper App. D.1); 0 = none.
  double smooth = 0.0;
  // Where to evaluate: a grid or explicit points (inside the declared domain).
  std::optional<Grid> grid;
  std::string points_file;
  // Optional public mask for a 2-D grid: only cells within half a grid step (per axis) of a point
  // of this CSV are evaluated (e.g. the Meuse floodplain cells); the map leaves the others blank.
  std::string mask_file;
  SamplerMethod method = SamplerMethod::Auto;
  std::string out_dir;
  std::string image_format = "png";  // png | svg
  std::string ledger_path;           // empty: default_ledger_path(data_path)
  std::optional<Budget> budget;
  std::optional<std::uint64_t> insecure_seed;
  std::string keep_path;  // empty: do not keep the path
  PathKey path_key;
  std::string internal_eval_dir;  // non-private p_D / μ_D maps, watermarked; never --out
};

struct ReleaseOutcome {
  nlohmann::json certificate;
  nlohmann::json summary;  // what the CLI prints (also with --json)
  std::vector<std::string> files;
};

// Validates, accounts, samples, records in the ledger, writes. Throws InputError / PrivacyError /
// NumericalError before anything is written or recorded.
ReleaseOutcome run_release(const ReleaseRequest& request);

// `gpdp query`: answers new points of a kept path conditionally on everything it has answered,
// re-deriving the posterior from the data file (whose SHA-256 must match), consuming no budget.
// The updated state is saved BEFORE the answer is written. Returns the summary.
struct QueryRequest {
  std::string path_file;
  PathKey key;
  std::string data_path;
  std::string points_file;
  std::optional<Grid> grid;
  // The CRS of the points (AUTH:CODE); empty: the release's. Transformed to the release's CRS;
  // refused for a release without one.
  std::string crs;
  std::string out_csv;
  std::string ledger_path;                     // empty: the ledger named in the path file
  std::optional<std::uint64_t> insecure_seed;  // tests only: reproducible, NOT PRIVATE
};
nlohmann::json run_query(const QueryRequest& request);

// The one-screen text summary of an outcome.
std::string format_summary(const nlohmann::json& summary);

}  // namespace gpdp::release
