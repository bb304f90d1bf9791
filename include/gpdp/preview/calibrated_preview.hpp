#pragma once
// `gpdp preview --calibrate-epsilon E_s` (issue #28; docs/utility.md "A calibrated preview",
// docs/privacy.md "Choosing a mechanism from a private summary"): the preview of `--mechanism
// auto`'s candidates on simulations calibrated by auto's own DP summary, drawn once from the
// private records at ε = E_s and charged to the ledger like a release.
//
//   plan      public inputs only: the summary S at E_s (release/auto_mechanism.hpp plan_auto_at:
//             auto's grid mean and the label statistic, release/label_disagreement.hpp)
//             and, per target ε of the preview, auto's candidates each calibrated to ε itself
//             (the summary is paid separately, so no composition inside the candidates);
//   spend     the ledger's pre-check, S drawn (secure generator unless insecure_seed), then S's
//             events recorded as one release of the dataset (PrivacyError: nothing recorded);
//   predict   post-processing of S's output only: the label statistic's nugget weights once (they
//             depend on S alone), then auto's choose_candidate per target ε, i.e.
//             the predicted accuracy (mean, 5 % and 95 % quantiles over the simulated data sets)
//             and IoU of every candidate, and the one auto's rule predicts best.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/release/auto_mechanism.hpp"
#include "gpdp/release/stages.hpp"

namespace gpdp::preview {

// One target ε: auto's candidates at ε, predicted.
struct CalibratedTarget {
  double epsilon = 0.0;
  std::vector<std::string> names;         // [0]: the summary's side, a reference (not a candidate)
  std::vector<double> candidate_epsilon;  // each candidate's own ε(δ) ([0]: 0)
  std::vector<release::AutoPrediction> predicted;
  std::size_t best = 0;  // auto's rule: the highest mean accuracy, a near tie to the simpler
  bool useless = false;  // no varying candidate beats a constant map by kAutoUsefulMargin
};

struct CalibratedPreview {
  double summary_epsilon = 0.0;  // the summary's own ε(δ), as charged
  double delta = 0.0;
  std::string rng;      // which generator drew the summary
  std::string dataset;  // the ledger's dataset and the row that records the spend
  long long ledger_release = 0;
  nlohmann::json privacy_record;  // the summary's events, as the ledger stores them
  std::vector<long> summary_cells;
  double share_above = 0.0;  // the summary's share above t (its post-processing GP's mean)
  // The label statistic as released, with the nugget weights it gives every target's simulations
  // ("weights": the one place they are kept).
  nlohmann::json label_statistic;
  long n = 0;
  std::vector<CalibratedTarget> targets;
};

// The records of `request` (its data file, input and evaluation) validated without reserving an
// output folder (the preview writes its own); the ledger and dataset are checked.
release::ValidatedRelease calibration_records(const release::ReleaseRequest& request);

// Public: one plan per target ε (auto's, with the summary at `summary_epsilon` and the candidates
// calibrated to that ε). ParameterError naming the option when auto cannot serve the request.
std::vector<release::AutoPlan> calibration_plans(const release::ReleaseRequest& request,
                                                 const release::ValidatedRelease& validated,
                                                 double summary_epsilon,
                                                 const std::vector<double>& epsilons);

// Post-processing of S's output: the predictions per target ε, every target's simulations
// weighted by the same `nugget_weights` (release::label_nugget_weights of S, computed once).
std::vector<CalibratedTarget> calibrated_targets(const std::vector<release::AutoPlan>& plans,
                                                 const release::AutoSummary& summary,
                                                 const std::vector<double>& nugget_weights);

// Plans, asks the ledger, draws S, records its spend, predicts. PrivacyError when the ledger
// refuses (nothing recorded, nothing drawn when the pre-check refuses).
CalibratedPreview run_calibrated_preview(const release::ReleaseRequest& request,
                                         const release::ValidatedRelease& validated,
                                         double summary_epsilon,
                                         const std::vector<double>& epsilons);

// preview.json's "calibration" object and the text report (one block per target ε).
nlohmann::json calibrated_json(const CalibratedPreview& preview);
std::string calibrated_table(const CalibratedPreview& preview);

}  // namespace gpdp::preview
