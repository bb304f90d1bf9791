// Stage 2 of a release: the mechanism (public parameters + n, dim, domain, M_Y of the data),
// calibration if asked, the (ε, δ) of this release and the attack risk it allows, the records'
// fingerprint, and the ledger's early verdict on identity and budget.
#include <fmt/format.h>

#include <filesystem>

#include "gpdp/error.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/privacy/envelope.hpp"
#include "gpdp/privacy/json.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/label_disagreement.hpp"
#include "gpdp/release/stages.hpp"
#include "prior_mean_share.hpp"

namespace gpdp::release {

namespace {

privacy::GpMechanism mechanism_of(const ReleaseRequest& q, const ValidatedRelease& v) {
  privacy::GpMechanism m = q.mechanism;
  m.dim = v.prepared.data.dim();
  m.domain = v.geo ? v.geo->model_domain() : *q.input.domain;  // where the covariates are modelled
  m.n = v.prepared.data.n();
  m.M_Y = q.input.M_Y;
  return m;
}

LedgerEntry ledger_entry(const ReleaseRequest& q, const ValidatedRelease& v,
                         const ReleaseAccounting& a) {
  LedgerEntry e;
  e.dataset = q.dataset;
  e.record = a.composition.record();
  e.epsilon = a.guarantee.epsilon;
  e.delta = q.delta;
  e.conversion = privacy::to_string(q.conversion);
  e.parameters = {{"theta",
                   {{"ell", a.mechanism.kernel->lengthscale()},
                    {"r", a.mechanism.r},
                    {"sigma", a.mechanism.sigma}}},
                  {"eta", a.mechanism.eta},
                  {"mechanism", privacy::to_string(a.mechanism.kind)},
                  {"draws", q.draws},
                  {"rng", rng_description(q)},
                  {"threshold", q.threshold},
                  {"points", v.evaluation.points.rows()},
                  {"sampler", to_string(q.sampler)}};
  e.parameters.update(privacy::noise_json(a.mechanism));
  if (a.prior_mean) e.parameters["prior_mean_noise"] = a.prior_mean->noise_scale;
  if (a.label_statistic) e.parameters["label_statistic_noise"] = a.label_statistic->noise_scale;
  e.out_dir = std::filesystem::absolute(q.out_dir).string();
  e.data_sha256 = v.prepared.sha256;
  return e;
}

// A release configured by a preview must fit what the preview simulated and chose.
void check_preview(const PreviewOrigin& p, const ReleaseAccounting& a) {
  require_parameter(p.n == a.mechanism.n, "config_from",
                    fmt::format("{}: the preview simulated n = {} records, the data have n = {} "
                                "(preview again with n = {}); nothing was drawn",
                                p.file, p.n, a.mechanism.n, a.mechanism.n));
  require_parameter(a.guarantee.epsilon <= p.target_epsilon * (1 + 1e-9), "config_from",
                    fmt::format("{}: the configuration chosen for ε = {} accounts to ε = {} on "
                                "these data; nothing was drawn",
                                p.file, p.target_epsilon, a.guarantee.epsilon));
}

}  // namespace

ReleaseAccounting account(const ReleaseRequest& q, const ValidatedRelease& v) {
  Ledger ledger(q.ledger_path, q.ledger_key_path);
  ReleaseAccounting a = account(q, v, ledger);
  ledger.check(a.entry, a.identity, q.budget, q.conversion, q.budget_orders);
  return a;
}

ReleaseAccounting account_mechanism(const ReleaseRequest& q, const ValidatedRelease& v) {
  ReleaseAccounting a = account_composition(q, v);
  if (q.preview) check_preview(*q.preview, a);
  a.risk = privacy::attack_risk(a.composition, a.guarantee);
  return a;
}

ReleaseAccounting account_composition(const ReleaseRequest& q, const ValidatedRelease& v) {
  ReleaseAccounting a;
  a.mechanism = mechanism_of(q, v);
  privacy::Accountant parts;  // the release's parts drawn before the main mechanism
  if (q.prior_mean && q.prior_mean->private_estimate) {
    // The prior mean's own ε(δ) is its fraction of the target (given, or the public rule's); the
    // main mechanism is then calibrated so that the composition of both meets the target
    // (docs/privacy.md).
    privacy::GpMechanism pm;
    pm.kind = privacy::MechanismKind::PriorMean;
    pm.n = a.mechanism.n;
    pm.dim = a.mechanism.dim;
    pm.M_Y = a.mechanism.M_Y;
    pm.noise_scale = q.prior_mean->noise.value_or(1.0);
    if (q.prior_mean->noise) {
      a.prior_mean = pm;
      a.prior_mean_fraction = q.prior_mean->fraction.value_or(0.0);
    } else {
      const double E = q.calibration->target_epsilon;
      a.prior_mean_fraction = q.prior_mean->fraction
                                  ? *q.prior_mean->fraction
                                  : prior_mean_fraction(pm, E, q.delta, q.conversion);
      const double share = a.prior_mean_fraction * E;
      a.prior_mean = privacy::calibrate(pm, 1, privacy::CalibrationParameter::Noise,
                                        {share, q.delta, q.conversion})
                         .mechanism;
    }
    parts.add(*a.prior_mean, 1);
  }
  if (q.label_statistic_fraction) {
    // Its own ε(δ) is its fraction of the target; the main mechanism is calibrated to the rest.
    require(q.calibration.has_value() && *q.label_statistic_fraction > 0 &&
                *q.label_statistic_fraction < 1,
            "the label statistic needs a target ε and a fraction in (0, 1)");
    a.label_statistic =
        privacy::calibrate(
            label_mechanism(a.mechanism.n, 1.0), 1, privacy::CalibrationParameter::Noise,
            {*q.label_statistic_fraction * q.calibration->target_epsilon, q.delta, q.conversion})
            .mechanism;
    parts.add(*a.label_statistic, 1);
  }
  if (q.calibration) {
    const auto cal =
        privacy::calibrate(a.mechanism, q.draws, q.calibration->parameter,
                           {q.calibration->target_epsilon, q.delta, q.conversion}, parts);
    a.mechanism = cal.mechanism;
    a.calibration = CalibrationReport{*q.calibration, cal.value, cal.note};
  }
  if (a.mechanism.kind == privacy::MechanismKind::GridMean) {
    // The cells: given, or the default rule (the UG count, at most n/k: grid_mean_cells) at the
    // target ε (or the ε the given noise gives).
    const double epsilon = q.calibration
                               ? q.calibration->target_epsilon
                               : privacy::account(a.mechanism, 1, q.delta, q.conversion).epsilon;
    a.mechanism.cells = q.cells.empty()
                            ? grid_mean_cells(*a.mechanism.domain, a.mechanism.n, epsilon).counts
                            : q.cells;
  }
  a.bounds = privacy::resolve_bounds(a.mechanism);
  a.composition = parts;
  a.composition.add(a.mechanism, q.draws);
  if (q.selection) {
    // Chosen by --mechanism auto: the summary, then the envelope of every candidate (Mironov 2017,
    // Prop. 1; this candidate's own composition is one of them, auto_mechanism.hpp).
    a.composition = privacy::summary_then_choice(q.selection->summary, q.selection->candidates);
  }
  a.guarantee = a.composition.epsilon(q.delta, q.conversion);
  return a;
}

ReleaseAccounting account(const ReleaseRequest& q, const ValidatedRelease& v, Ledger& ledger) {
  ReleaseAccounting a = account_mechanism(q, v);
  const LedgerKey& key = ledger.key();
  a.identity = {q.dataset, fingerprint(v.prepared.raw_covariates, v.prepared.raw_response, key),
                q.new_dataset_despite_overlap, table_fingerprint(v.prepared.numeric_rows, key),
                covariate_fingerprint(v.prepared.raw_covariates, key)};
  a.entry = ledger_entry(q, v, a);
  return a;
}

}  // namespace gpdp::release
