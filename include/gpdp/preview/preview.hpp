#pragma once
// `gpdp preview` as a library call: know the map before you spend the budget. From PUBLIC inputs
// only — the release's public parameters, the private data set's size n, a list of ε targets, and
// optionally public proxy data (an earlier year, a neighbouring region) — it simulates releases and
// predicts, per ε and per candidate configuration, the utility of the released excursion set: its
// IoU with the non-private posterior set {μ_D ≥ t} of the same data (and a BCE for vote maps). It
// never sees the private data and spends no budget (a seeded experiment, not a release): its
// prediction is uncalibrated (report.hpp says so). `gpdp preview --calibrate-epsilon` spends a
// recorded ε on the private data instead: calibrated_preview.hpp.
//
// Simulated private sets (n records each, covariates on the evaluation points):
//   with a proxy: n proxy records resampled (without replacement while they last), each covariate
//                 moved to the nearest evaluation point;
//   without:      a prior field σ f, f ~ GP(0, k) at the public θ, observed at n evaluation points
//                 drawn uniformly, plus N(0, σ² r²) noise, clipped to ±M_Y.
// The proxy's records are split in two halves: the tuning simulations draw from the first (the
// vote cutoff, smoothing bandwidth, ridge grids and the chosen configuration are selected on them)
// and the reported utilities come from independent simulations of the second (held out). Without
// a proxy the two halves are independent prior fields.
//
// Candidates per ε (each calibrated by the project's accountant to ε ≤ target):
//   default     r-calibrated, one path, no smoothing (what `gpdp release --target-epsilon` does)
//   smoothed    r-calibrated, one path, smoothed by the release's Gaussian filter (2-D grids)
//   vote        r-calibrated, L ∈ draws (> 1) paths, vote cutoff c ∈ {1/L, …, 1}, smoothing
//   eta         η-calibrated (Proposition 2) at r = r_ε,1 × eta_ridge_factors, smoothing
//   functional  the functional Gaussian mechanism μ_D + s g with s calibrated, r from a grid
//   small-sigma r-calibrated, one path, at σ × sigma_factors (a smaller prior scale)
//   prior-mean  r-calibrated, one path, with a private prior mean spending prior_mean_fraction of ε
//   grid-mean   the grid mean (noisy cell sums and counts, default cells, s calibrated), GP map
//   sign        r-calibrated, one path, on the sign-clipped responses (threshold at the centre
//   only)
// Released sets are computed by the SAME post-processing the release ships (smoothing, vote).
// Each simulation draws the released paths by Matheron's rule from shared prior fields (common
// random numbers across candidates): one Cholesky of K + r² I per simulated set and ridge.
#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/domain.hpp"
#include "gpdp/interval.hpp"
#include "gpdp/preview/evaluation_points.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::preview {

// Public proxy data in model units (after the release's transform, centring, scaling, clipping).
struct ProxyData {
  Points X;
  Eigen::VectorXd y;
  std::string source;  // file name, for the report
  std::string sha256;  // of the file's bytes
};

struct PreviewRequest {
  EvaluationPoints evaluation;
  Box domain = Box::unit(1);  // the covariate domain of the model CRS (the declared one if no CRS)
  std::optional<Box> declared_domain;  // with a projected declared CRS: the declared domain
  double level = 0.0;                  // the threshold in model units
  double M_Y = 1.0;
  long n = 0;  // size of the private data set (public)
  std::vector<double> epsilons;
  double delta = 0.0;
  privacy::Conversion conversion = privacy::Conversion::CKS;
  privacy::SensitivityLemma lemma = privacy::SensitivityLemma::B1Sharp;
  std::string kernel = "exp";
  // θ: given, or (ℓ, σ and the reference ridge r) chosen on the proxy by the public search
  // (experiments/public_search.hpp, exponential kernel). Without a proxy all three are required.
  std::optional<double> ell, sigma, r_reference;
  std::optional<ProxyData> proxy;
  // The candidate grid.
  std::vector<int> draws = {1, 3, 5, 9};
  std::vector<double> eta_ridge_factors = {0.5, 0.25, 0.125};
  std::vector<double> functional_ridge_factors = {0.125, 0.5, 2.0, 8.0, 32.0};  // × √n
  // × min(ℓ, the grid's shorter side / 4), besides 0 (2-D grids only).
  std::vector<double> bandwidth_factors = {0.5, 1.0, 2.0};
  bool functional = true;
  std::vector<double> sigma_factors = {0.1};  // small-sigma candidates: σ × these
  double prior_mean_fraction = 0.1;           // prior-mean candidates (0: none)
  bool grid_mean = true;
  bool sign = true;      // sign candidates (when the threshold is the centre, level 0)
  int simulations = 16;  // per half (tuning and held-out), ≥ 2
  std::uint64_t seed = 1;
  int threads = 0;
  std::function<void(const std::string&)> progress;
};

enum class Family {
  Default,
  Smoothed,
  Vote,
  Eta,
  Functional,
  SmallSigma,
  PriorMean,
  GridMean,
  Sign
};
// "default", "smoothed", "vote", "eta", "functional", "small-sigma", "prior-mean", "grid-mean",
// "sign"
std::string to_string(Family family);

// The public parameters of one release (what `gpdp release --config-from` applies).
struct ReleaseConfig {
  Family family = Family::Default;
  privacy::GpMechanism mechanism;  // kind, kernel, r, σ, η or s, n, M_Y, lemma, domain
  privacy::CalibrationParameter solved = privacy::CalibrationParameter::R;
  int draws = 1;
  double vote_cutoff = 1.0;
  double smooth = 0.0;   // bandwidth in coordinate units (0 = none)
  double epsilon = 0.0;  // ε(δ) of the release as accounted (≤ the target)
  // A private prior mean: its fraction of the target and its calibrated noise s (0: none).
  double prior_mean_fraction = 0.0;
  double prior_mean_noise = 0.0;
  bool sign = false;  // the sign-clipped response
};

using Interval = gpdp::Interval;  // over the held-out simulations

struct CandidateResult {
  ReleaseConfig config;
  double tuning_iou = 0.0;      // mean over the tuning simulations (what selection uses)
  Interval iou;                 // over the held-out simulations
  std::optional<Interval> bce;  // vote maps: integrated BCE of (votes + ½)/(L + 1), held out
};

struct EpsilonResult {
  double epsilon = 0.0;  // the target
  std::size_t best = 0;  // index into candidates: the highest tuning IoU
  std::vector<CandidateResult> candidates;
  std::vector<std::string> infeasible;  // candidates no parameter value could calibrate
  // The chosen candidate's IoU minus the chance level, paired over the held-out simulations;
  // it beats chance when the mean exceeds twice its standard error.
  Interval gain_over_chance;
  bool beats_chance = false;
  const CandidateResult& chosen() const { return candidates[best]; }
  // The best candidate of a family (by tuning IoU), if any.
  const CandidateResult* family_best(Family family) const;
};

struct PreviewResult {
  std::vector<EpsilonResult> results;
  Interval random_set_iou;  // chance: the share of the area in the reference set (whole region)
  Interval nonprivate_iou;  // one non-private posterior path at the reference θ
  double ell = 0.0, sigma = 0.0, r_reference = 0.0;
  std::string theta_source;  // "given" or the proxy search's description
  std::string prior_sampler;
  int simulations = 0;
  double seconds = 0.0;
  // The prediction is uncalibrated (public inputs only): the simulations' share of the area above
  // the threshold (the mean area share of their non-private sets, held out) beside the public
  // proxy's share of records at or above it, when a proxy is given (report.hpp says how far).
  double simulated_share_above = 0.0;
  std::optional<double> proxy_share_above;
};

// Validates (InputError naming the parameter), simulates, selects. Deterministic given the seed
// (independent of the thread count).
PreviewResult run_preview(const PreviewRequest& request);

}  // namespace gpdp::preview
