// `gpdp preview --calibrate-epsilon` (calibrated_preview.hpp): auto's summary, charged once, and
// auto's simulated choice per target ε.
#include "gpdp/preview/calibrated_preview.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/release/dataset_identity.hpp"
#include "gpdp/release/grid_mean.hpp"

namespace gpdp::preview {

using nlohmann::json;

release::ValidatedRelease calibration_records(const release::ReleaseRequest& q) {
  release::check_public_parameters(q);
  release::check_dataset_name(q.dataset);
  if (q.ledger_path.empty())
    throw ParameterError({"ledger", "calibrate_epsilon", "dataset"},
                         "calibrate_epsilon spends ε on the private records: give ledger (the "
                         "SQLite file that keeps the privacy budget) and dataset");
  release::PreparedData prepared = release::prepare_data(q.data_path, q.input);
  release::Evaluation evaluation =
      release::load_evaluation(q.evaluation, prepared.data.covariate_names, *q.input.domain);
  return release::validated(q, std::move(prepared), std::move(evaluation));
}

std::vector<release::AutoPlan> calibration_plans(const release::ReleaseRequest& request,
                                                 const release::ValidatedRelease& validated,
                                                 double summary_epsilon,
                                                 const std::vector<double>& epsilons) {
  require_parameter(!epsilons.empty(), "epsilons", "give at least one ε target");
  release::ReleaseRequest q = request;
  if (!q.auto_mechanism) q.auto_mechanism = release::AutoSpec{};
  std::vector<release::AutoPlan> plans;
  for (const double e : epsilons) {
    q.calibration = release::CalibrationGoal{privacy::CalibrationParameter::R, e};
    plans.push_back(release::plan_auto_at(q, validated, summary_epsilon, e));
  }
  return plans;
}

std::vector<CalibratedTarget> calibrated_targets(const std::vector<release::AutoPlan>& plans,
                                                 const release::AutoSummary& summary,
                                                 const std::vector<double>& nugget_weights) {
  std::vector<CalibratedTarget> out;
  for (const auto& plan : plans) {
    const release::AutoChoice choice = release::choose_candidate(plan, summary, nugget_weights);
    CalibratedTarget t;
    t.epsilon = plan.target_epsilon;
    for (const auto& c : plan.candidates) {
      t.names.push_back(c.name);
      t.candidate_epsilon.push_back(c.trivial ? 0.0 : c.accounting.guarantee.epsilon);
    }
    t.predicted = choice.predictions;
    t.best = choice.winner;
    t.useless = choice.useless;
    out.push_back(std::move(t));
  }
  return out;
}

CalibratedPreview run_calibrated_preview(const release::ReleaseRequest& request,
                                         const release::ValidatedRelease& validated,
                                         double summary_epsilon,
                                         const std::vector<double>& epsilons) {
  const std::vector<release::AutoPlan> plans =
      calibration_plans(request, validated, summary_epsilon, epsilons);
  const release::AutoPlan& first = plans.front();
  // The ledger's verdict before the draw (identity and budget), then S, then its record.
  const release::ReleaseAccounting a =
      release::account(first.summary_request, first.summary_validated);
  const release::AutoSummary summary = release::draw_summary(first, request.insecure_seed);
  const release::LedgerDecision d = release::record_summary(
      first, a, {{"preview", true}, {"calibrate_epsilon", summary_epsilon}, {"targets", epsilons}});

  CalibratedPreview p;
  p.summary_epsilon = a.guarantee.epsilon;
  p.delta = first.summary_request.delta;
  p.rng = release::rng_description(request);
  p.dataset = request.dataset;
  p.ledger_release = d.id;
  p.privacy_record = a.composition.record();
  p.summary_cells = summary.table.layout.counts;
  p.n = first.summary_validated.prepared.data.n();
  p.share_above =
      (1.0 +
       release::cell_posterior(summary.table, first.summary_accounting.mechanism).prior_mean) /
      2.0;
  // The nugget weights depend on S alone: once for every target.
  const std::vector<double> weights = release::label_nugget_weights(first, summary);
  p.targets = calibrated_targets(plans, summary, weights);
  if (summary.labels) {
    p.label_statistic = release::to_json(*summary.labels);
    p.label_statistic["nuggets"] = release::kLabelNuggets;
    p.label_statistic["weights"] = weights;
  }
  return p;
}

json calibrated_json(const CalibratedPreview& p) {
  json targets = json::array();
  for (const auto& t : p.targets) {
    json candidates = json::array();
    for (std::size_t c = 0; c < t.names.size(); ++c) {
      candidates.push_back({{"name", t.names[c]},
                            {"reference_only", c == 0},
                            {"epsilon", t.candidate_epsilon[c]},
                            {"predicted", release::to_json(t.predicted[c])}});
    }
    targets.push_back({{"epsilon", t.epsilon},
                       {"best", t.names[t.best]},
                       {"predicted", release::to_json(t.predicted[t.best])},
                       {"useless", t.useless},
                       {"candidates", candidates}});
  }
  return {
      {"calibrated", true},
      {"rule",
       "auto's DP summary (the grid mean on sign(y − t) over coarse public cells) and the label "
       "statistic (records on their small cell's minority side), drawn once at calibrate_epsilon "
       "(half each), calibrate simulated data sets: their share above t and, by the nugget the "
       "statistic weights, how often neighbours disagree; each candidate, calibrated to the target "
       "ε itself, runs on them through the release's own map mechanism and is scored at simulated "
       "held-out records (docs/utility.md \"A calibrated preview\")"},
      {"summary",
       {{"epsilon", p.summary_epsilon},
        {"delta", p.delta},
        {"rng", p.rng},
        {"cells", p.summary_cells},
        {"share_above", p.share_above},
        {"label_statistic", p.label_statistic},
        {"n", p.n}}},
      {"spend",
       {{"dataset", p.dataset},
        {"ledger_release", p.ledger_release},
        {"epsilon", p.summary_epsilon},
        {"delta", p.delta},
        {"privacy_record", p.privacy_record},
        {"note",
         "a real spend: recorded in the ledger as one release of the dataset, the preview's "
         "predictions are post-processing of it"}}},
      {"simulation",
       {{"data_sets", release::kAutoSimulations},
        {"records", std::min(p.n, release::kAutoSimulatedRecords)},
        {"held_out", release::kAutoSimulatedTests},
        {"interval", "5 % and 95 % quantiles over the simulated data sets"}}},
      {"targets", targets}};
}

std::string calibrated_table(const CalibratedPreview& p) {
  std::string s = fmt::format(
      "calibrated preview: auto's summary drawn once at ε = {:.4g}, δ = {:.3g} ({}; ledger release "
      "{} of dataset {}), n = {}, share above t {:.3f}\n",
      p.summary_epsilon, p.delta, p.rng, p.ledger_release, p.dataset, p.n, p.share_above);
  if (!p.label_statistic.is_null()) {
    std::string weights;
    for (std::size_t j = 0; j < release::kLabelNuggets.size(); ++j)
      weights += fmt::format("{}ν={:g}: {:.2f}", j ? ", " : "", release::kLabelNuggets[j],
                             p.label_statistic["weights"][j].get<double>());
    const nlohmann::json& ratio = p.label_statistic["ratio"];
    s += fmt::format(
        "label statistic: D̃/P̃ = {} (records on their small cell's minority side, of the most "
        "possible); nugget weights {}\n",
        ratio.is_null() ? std::string("(no pairs)") : fmt::format("{:.3f}", ratio.get<double>()),
        weights);
  }
  for (const auto& t : p.targets) {
    s += fmt::format(
        "ε = {:g}: predicted best {} — accuracy {:.3f} [{:.3f}, {:.3f}], IoU {:.3f}{}\n", t.epsilon,
        t.names[t.best], t.predicted[t.best].accuracy, t.predicted[t.best].lo,
        t.predicted[t.best].hi, t.predicted[t.best].iou,
        t.useless ? " (no better than a constant map)" : "");
    for (std::size_t c = 0; c < t.names.size(); ++c) {
      const auto& a = t.predicted[c];
      s += fmt::format("  {:<62} ε {:6.3g}  accuracy {:.3f} [{:.3f}, {:.3f}]  IoU {:.3f}\n",
                       t.names[c], t.candidate_epsilon[c], a.accuracy, a.lo, a.hi, a.iou);
    }
  }
  return s;
}

}  // namespace gpdp::preview
