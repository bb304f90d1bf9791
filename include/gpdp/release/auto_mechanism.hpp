#pragma once
// `--mechanism auto` (issue #28; docs/privacy.md "Choosing a mechanism from a private summary",
// docs/utility.md "Choosing automatically"): the release picks its map from a public list of
// candidates, privately, and the total (ε, δ) covers the choosing.
//
//   plan       public inputs only (n, E, δ, the fraction f, domain, kernel, ℓ, r, σ, t, M_Y): the
//              summary S (the grid mean on sign(y − t) over coarse public cells, calibrated to
//              f·E) and the candidates C_k, each calibrated to one common per-candidate target
//              E_c, lowered by bisection until summary_then_choice(S, {C_k}).epsilon(δ) ≤ E
//              (Mironov 2017, Prop. 1: the summary plus the ENVELOPE max_k ε_α(C_k));
//   summary    S(D): one draw of the grid mean through the release's map mechanism;
//   choose     post-processing of S's output only: simulated data sets calibrated by the summary
//              (record locations from its noisy counts; a record is above t when g + ζ > 0, g a
//              draw of the summary's post-processing GP, ζ = 2Φ(z) − 1 with z a prior draw at the
//              public kernel: the share above t is the summary's, the labels coherent over ℓ),
//              every candidate run on them through the SAME seam as releases
//              (prepared_release.hpp: the same validation, map mechanism, snapping and released
//              set), scored at simulated held-out records; the one-standard-error rule picks
//              the simplest candidate within one standard error of the highest mean accuracy;
//   release    the chosen candidate's draw; its accounting composes S then the envelope
//              (AutoSelection). The summary's own constant side is a reference for "useless"
//              only: the whole E is charged whichever candidate wins, so the constant map is
//              the majority side at E_c (a one-cell grid mean), a candidate like the others.
//
// Simulations are capped for speed: the grid mean's candidates run on at most
// kAutoSimulatedGridRecords simulated records (cell sums and a GP on the cells: cheap at any n),
// the others on at most kAutoSimulatedRecords; when n is larger a candidate runs on the thinned
// data with its parameters scaled so that the information per unit area is n's (posterior sample
// and functional: r² ∝ n) or a cell mean's noise is n's (grid mean: cells ∝ n, the same s_S and
// records per cell), see docs/utility.md.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/privacy/accountant.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/label_disagreement.hpp"
#include "gpdp/release/stages.hpp"

namespace gpdp::release {

// The summary's cells: the UG rule at f·E, at most this many.
inline constexpr long kAutoSummaryMaxCells = 256;
// Simulated data sets, training records (at most n) and held-out records per data set.
inline constexpr int kAutoSimulations = 10;
inline constexpr long kAutoSimulatedRecords = 400;
// The grid mean's candidates are cheap at any n (cell sums, a GP on the cells): they run on this
// many simulated records (at most n), the real n up to it.
inline constexpr long kAutoSimulatedGridRecords = 20000;
inline constexpr long kAutoSimulatedTests = 200;
// The one-standard-error rule's least margin: the simplest candidate whose mean simulated accuracy
// is within max(this, the standard error of the paired difference) of the highest is chosen; the
// best is "useful" only when it beats the trivial map's by more than kAutoUsefulMargin.
inline constexpr double kAutoTieMargin = 0.005;
inline constexpr double kAutoUsefulMargin = 0.01;
// The simulations' generator (public: the simulations are post-processing of the summary).
inline constexpr std::uint64_t kAutoSimulationSeed = 0x6770647028ULL;

struct AutoCandidate {
  std::string name;
  ReleaseRequest request;        // its public parameters, calibrated to the common target E_c
  ValidatedRelease validated;    // the records under its response transform (y or sign)
  ReleaseAccounting accounting;  // its own composition (account_mechanism), no ledger
  bool trivial = false;   // the summary's constant side: a reference only (no event, no draw)
  bool constant = false;  // a constant map (the reference, the majority side)
};

struct AutoPlan {
  AutoSpec spec;
  InputSpec input;              // the request's own (transform, scale: the simulated responses)
  double target_epsilon = 0.0;  // E
  ReleaseRequest summary_request;
  ValidatedRelease summary_validated;
  ReleaseAccounting summary_accounting;  // with the label statistic when drawn (preview only)
  // [0] the trivial map, the summary's side (a reference for "useless", never chosen), then the
  // candidates, simplest first (the 1-SE rule prefers the earlier).
  std::vector<AutoCandidate> candidates;
  double candidate_epsilon = 0.0;  // E_c
  privacy::Accountant total;       // summary_then_choice(summary, candidates)
  privacy::Guarantee guarantee;    // total at δ: ≤ E, verified
};
// Public inputs only (the records' n, the evaluation, the request's public parameters): the
// summary, the candidates and their common calibration. ParameterError naming the option for a
// request auto cannot serve (no target ε, --config-from, --keep-path, --smooth, --prior-mean,
// --cells, --draws > 1, --eta, --noise-scale, a fraction outside (0, 1)).
AutoPlan plan_auto(const ReleaseRequest& request, const ValidatedRelease& validated);
// The same parts for `gpdp preview --calibrate-epsilon` (preview/calibrated_preview.hpp): the
// summary at `summary_epsilon` (charged on its own by the preview), drawn with the label statistic
// (label_disagreement.hpp: half of it, the summary's cells the rest; their UG rule at half), and
// every candidate calibrated to `candidate_epsilon` itself (what a release of that candidate alone
// at that ε would spend); `total` composes the two as plan_auto's does, for the report only.
AutoPlan plan_auto_at(const ReleaseRequest& request, const ValidatedRelease& validated,
                      double summary_epsilon, double candidate_epsilon);

struct AutoPrediction {
  double accuracy = 0.0;  // mean over the simulations
  double lo = 0.0;        // 5 % and 95 % quantiles over the simulations
  double hi = 0.0;
  double iou = 0.0;  // mean
};
// {"accuracy", "lo", "hi", "iou"}
nlohmann::json to_json(const AutoPrediction& prediction);
// S's output: the grid mean's noisy cell table (sign response) and, in the calibrated preview, the
// label statistic.
struct AutoSummary {
  CellTable table;
  std::optional<LabelStatistic> labels;
};
struct AutoChoice {
  CellTable summary;  // S's output (the grid mean's noisy cell table, sign response)
  // Each simulated data set's nugget: the label statistic's weights' stratified quantiles; without
  // the statistic, ν = 0 everywhere.
  std::vector<double> nuggets;
  std::size_t winner = 0;
  std::vector<AutoPrediction> predictions;  // per candidate
  bool useless = false;   // the best non-constant is not better than a constant map by the margin
  nlohmann::json report;  // the certificate's "auto" block
};
// The one-standard-error rule (Breiman, Friedman, Olshen & Stone 1984, §3.4; Hastie, Tibshirani &
// Friedman 2009, §7.10) over accuracy[c][k], candidate c's accuracy on simulated data set k (every
// candidate on the same data sets), for the candidates c ≥ first, listed simplest first: `top` has
// the highest mean; the winner is the first c whose mean is within margins[c] of top's, margins[c]
// = max(least_margin, the standard error of mean(accuracy[top] − accuracy[c])). With weak data the
// simulations cannot tell the candidates apart and the simpler map is released.
struct OneStandardErrorChoice {
  std::size_t winner = 0;
  std::size_t top = 0;
  std::vector<double> margins;  // per candidate (0 below `first`)
};
OneStandardErrorChoice one_standard_error_choice(const std::vector<std::vector<double>>& accuracy,
                                                 std::size_t first, double least_margin);

// The label statistic's nugget weights (per kLabelNuggets: label_disagreement.hpp nugget_weights
// against data sets simulated from S, the simulated truth's own seeded streams): post-processing
// of S's output that depends on neither the target ε nor the candidates, so a calibrated preview
// computes them once for all its targets. Empty when S has no label statistic.
std::vector<double> label_nugget_weights(const AutoPlan& plan, const AutoSummary& summary);
// The choice from S's output and public inputs only (post-processing). `nugget_weights`:
// label_nugget_weights(plan, summary) (empty exactly when S has no label statistic).
AutoChoice choose_candidate(const AutoPlan& plan, const AutoSummary& summary,
                            const std::vector<double>& nugget_weights);
// S's output, drawn with the release's generator (with `insecure_seed`: a seeded one, NOT
// private).
AutoSummary draw_summary(const AutoPlan& plan, const std::optional<std::uint64_t>& insecure_seed);
// Draws S with the release's generator (with `insecure_seed`: a seeded one, NOT private) and
// chooses.
AutoChoice draw_summary_and_choose(const AutoPlan& plan,
                                   const std::optional<std::uint64_t>& insecure_seed);

// The chosen candidate's request (with its AutoSelection: account_mechanism then composes the
// summary and the envelope) and records.
struct ChosenRelease {
  ReleaseRequest request;
  ValidatedRelease validated;
};
ChosenRelease chosen_release(const AutoPlan& plan, std::size_t winner,
                             const nlohmann::json& report);
// The summary's ε alone, recorded in the ledger as one release of the request's dataset (its
// events, (ε, δ) and public parameters, `note` under "auto"); PrivacyError, nothing recorded, when
// the ledger refuses. `accounting`: account(plan.summary_request, plan.summary_validated).
LedgerDecision record_summary(const AutoPlan& plan, const ReleaseAccounting& accounting,
                              const nlohmann::json& note);
// The accounting of the plan before any choice (PreparedRelease::guarantee, a pre-check): the
// summary's mechanism with the total composition.
ReleaseAccounting planned_accounting(const AutoPlan& plan);

// `gpdp release --mechanism auto`: validate, plan, ledger pre-check, summary, choice, then the
// chosen release through account → draw → render → certify → publish (release.hpp run_release
// calls it). With refuse_if_useless and a useless best candidate: the summary alone is charged
// (its row marked failed) and Error says so; nothing is published.
ReleaseOutcome run_auto_release(const ReleaseRequest& request);

}  // namespace gpdp::release
