// Stage 5 of a release: the certificate, and the ledger record of the release in one durable
// transaction (the budget is checked again inside it: concurrent releases serialise there).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/privacy/json.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/stages.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/version.hpp"
#include "prior_mean_share.hpp"

namespace gpdp::release {

namespace {

// How the private prior mean's share of ε was set (the certificate's prior_mean.fraction_rule).
std::string prior_mean_fraction_rule(const PriorMeanSpec& p) {
  if (p.noise)
    return "the preview's configuration (a release configured by gpdp preview: fraction and noise "
           "s given)";
  if (p.fraction) return "given (dp:FRACTION)";
  return fmt::format(
      "public rule: the share at which s = {}·M_Y, within [{}, {}] of the target "
      "(docs/privacy.md)",
      kPriorMeanResolution, kPriorMeanMinFraction, kPriorMeanMaxFraction);
}

using nlohmann::json;

std::string file_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

json input_json(const ReleaseRequest& q, const ValidatedRelease& v) {
  const Dataset& data = v.prepared.data;
  return {{"file", file_name(q.data_path)},
          {"sha256", v.prepared.sha256},
          {"bytes", v.prepared.file_bytes},
          {"n", data.n()},
          {"covariates", data.covariate_names},
          {"response", data.response_name},
          {"transform", to_string(q.input.transform)},
          {"center", v.center},
          {"scale", v.scale},
          {"response_policy", to_string(q.input.policy)},
          {"M_Y", q.input.M_Y},
          {"clipped", v.prepared.clipped}};
}

json sensitivity_json(const ReleaseAccounting& a) {
  const auto& b = a.bounds;
  if (a.mechanism.kind == privacy::MechanismKind::GridMean) {
    return {{"lemma", "grid-mean"},
            {"assumptions", b.Delta_source},
            {"Delta_n", b.Delta_n},
            {"theorem", b.theorem}};
  }
  return {{"lemma", privacy::to_string(a.mechanism.lemma)},
          {"assumptions", privacy::lemma_assumptions(a.mechanism.lemma)},
          {"Delta_n", b.Delta_n},
          {"V_n", b.Vn},
          {"V_n_source", b.Vn_source},
          {"kappa", b.kappa},
          {"theorem", b.theorem}};
}

// "lo:hi:count,..." of a grid, exactly (Grid::parse reads it back).
std::string grid_spec(const Grid& grid) {
  std::vector<std::string> axes;
  for (const auto& a : grid.axes())
    axes.push_back(
        fmt::format("{}:{}:{}", io::format_number(a.lo), io::format_number(a.hi), a.count));
  return fmt::format("{}", fmt::join(axes, ","));
}

json evaluation_json(const Evaluation& e) {
  const auto name_or_null = [](const std::string& path) {
    return path.empty() ? json(nullptr) : json(file_name(path));
  };
  return {{"points", e.points.rows()},
          {"grid", e.grid ? json(e.grid->dim() == 1 ? "1-D grid" : "2-D grid") : json(nullptr)},
          {"grid_spec", e.grid ? json(grid_spec(*e.grid)) : json(nullptr)},
          {"mask", name_or_null(e.mask_file)},
          {"points_file", name_or_null(e.points_file)}};
}

// The released mechanism: its kind, its noise (privacy::noise_json) and what it released.
json mechanism_json(const privacy::GpMechanism& m) {
  json j = privacy::noise_json(m);
  j["kind"] = privacy::to_string(m.kind);
  if (m.kind == privacy::MechanismKind::GridMean) {
    j["released"] =
        "per public cell the sum of the clipped responses + N(0, s_S²) and the count + "
        "N(0, s_N²) (cells.csv); everything else is post-processing of that table: the map is "
        "the mean of a GP fitted to the noisy cell means (docs/privacy.md, the grid mean)";
  } else if (m.kind != privacy::MechanismKind::Functional) {
    j["released"] = "L posterior sample paths at θ (plus GP(0, η²k) noise when η > 0)";
  } else {
    j["released"] =
        "μ_D + s·g per draw: the kernel ridge mean at ridge r (σ plays no part) plus s times "
        "an exact GP(0, k) draw (docs/privacy.md)";
  }
  return j;
}

json certificate_json(const ReleaseRequest& q, const ValidatedRelease& v,
                      const ReleaseAccounting& a, const ReleasedPaths& p) {
  const auto& lattice = p.lattice;
  json cert{{"gpdp_version", kVersion},
            {"private", !q.insecure_seed.has_value()},
            {"input", input_json(q, v)},
            {"domain", q.input.domain->to_string()},
            {"crs", v.geo ? v.geo->to_json() : json(nullptr)},
            {"release_uid", v.release_uid},
            {"rng", p.rng},
            {"rounding",
             {{"granularity", lattice.lambda},
              {"exponent", lattice.exponent},
              {"std_floor", lattice.std_floor},
              {"value_bound", lattice.value_bound},
              {"reasoning", lattice.reasoning}}},
            {"sampler", p.sampler},
            {"sampler_requested", to_string(q.sampler)},
            {"threshold",
             {{"t", q.threshold},
              {"model_units", v.level},
              {"vote_cutoff", q.vote_cutoff},
              {"smoothing_bandwidth", q.smooth}}},
            {"evaluation", evaluation_json(v.evaluation)},
            {"covered_by_guarantee",
             "every file listed in 'outputs': all are functions of the released, "
             "snapped sample paths only"},
            {"timestamp", utc_timestamp()}};
  cert.update(privacy_json(q, a));
  if (v.covariate_snap) cert["covariate_snapping"] = covariate_snap_json(v.covariate_snap->plan);
  if (p.prior_mean) {
    json pm{{"mode", a.prior_mean ? "dp" : "public"},
            {"model_units", *p.prior_mean},
            {"response_units", v.center + v.scale * *p.prior_mean},
            {"rule",
             "the GP mechanism ran on the responses re-centred at this mean and re-clipped to "
             "±M_Y; the released values are this mean plus its output (docs/privacy.md)"}};
    if (a.prior_mean) {
      pm["fraction"] = a.prior_mean_fraction;
      pm["fraction_rule"] = prior_mean_fraction_rule(*q.prior_mean);
      pm["noise_scale"] = a.prior_mean->noise_scale;
      pm["epsilon"] =
          privacy::Accountant().add(*a.prior_mean, 1).epsilon(q.delta, q.conversion).epsilon;
      pm["estimate"] =
          "clamp(mean of the clipped responses + N(0, s²), ±M_Y): Gaussian mechanism, "
          "sensitivity 2M_Y/n (n public)";
    }
    cert["prior_mean"] = pm;
  }
  if (p.table) {
    const CellPosterior cp = cell_posterior(*p.table, a.mechanism);
    cert["grid_mean"] = {
        {"cells", p.table->layout.size()},
        {"cells_per_axis", p.table->layout.counts},
        {"cells_rule", q.cells.empty() ? fmt::format("UG rule (Qardaji, Yang & Li 2013) capped: "
                                                     "min(n·ε/{}, n/{}) cells, at most {}",
                                                     kGridMeanUgConstant,
                                                     kGridMeanMinRecordsPerCell, kGridMeanMaxCells)
                                       : std::string("given (cells)")},
        {"kept_cells", cp.kept.size()},
        {"min_count", kGridMeanMinCount},
        {"prior_scale", cp.posterior.sigma()},
        {"prior_mean",
         {{"model_units", cp.prior_mean}, {"response_units", v.center + v.scale * cp.prior_mean}}},
        {"post_processing",
         "no privacy cost: the map, its probability and the lazy path are functions of the "
         "released cell table (cells.csv) and public parameters only"},
        {"lazy_path",
         "gpdp query / gpdp serve answer a sample path of the post-processing GP posterior (exact "
         "joint law, drawn from the published table alone)"}};
    if (q.grid_map == GridMap::Cells) {
      cert["grid_mean"]["map"] = "cells";
      cert["grid_mean"]["map_rule"] =
          "each point's own noisy cell mean clamp(S̃/Ñ, ±M_Y) (cells with Ñ < min_count: the prior "
          "mean); no probability map, no lazy path";
    } else {
      cert["grid_mean"]["map"] = "gp";
      cert["grid_mean"]["map_rule"] =
          "the mean of the post-processing GP fitted to the noisy cell means of the kept cells";
    }
    cert["covered_by_guarantee"] =
        "every file listed in 'outputs': all are functions of the released, snapped cell table "
        "(cells.csv) only";
  }
  if (q.preview) {
    cert["preview"] = {{"file", q.preview->file},
                       {"sha256", q.preview->sha256},
                       {"target_epsilon", q.preview->target_epsilon},
                       {"predicted_iou", q.preview->predicted_iou},
                       {"config", q.preview->config}};
  }
  if (q.insecure_seed) {
    cert["warning"] =
        "NOT PRIVATE: drawn with a user-chosen seed; anyone who knows the seed can "
        "remove the noise. Never publish this release.";
  }
  return cert;
}

json spend_json(const privacy::RenyiFilter::Spend& s) {
  return {{"epsilon", s.epsilon}, {"alpha", s.alpha}, {"rdp", s.rdp}, {"rdp_budget", s.rdp_budget}};
}

json ledger_json(const std::string& path, const LedgerDecision& d) {
  json j{{"path", path}, {"release_id", d.id}, {"filter_theorem", privacy::RenyiFilter::theorem()}};
  if (d.filter) {
    const auto& b = d.filter->budget();
    j["budget"] = {{"epsilon", b.epsilon}, {"delta", b.delta}};
    j["filter"] = d.filter->to_json();
    j["spent_before"] = spend_json(d.before);
    j["spent_after"] = spend_json(d.after);
    j["epsilon_spent_total"] = d.after.epsilon;
    j["epsilon_remaining"] = b.epsilon - d.after.epsilon;
  }
  return j;
}

json dataset_json(const ReleaseAccounting& a, const LedgerDecision& d) {
  json overridden = json::array();
  for (const auto& o : d.overridden)
    overridden.push_back({{"dataset", o.dataset},
                          {"shared", o.shared},
                          {"shared_rows", o.shared_rows},
                          {"shared_covariates", o.shared_covariates}});
  return {{"name", a.identity.name},
          {"records", a.identity.fingerprint.records},
          {"distinct_records", a.identity.fingerprint.hashes.size()},
          {"earlier_releases", d.earlier_releases},
          {"new_dataset_despite_overlap", a.identity.new_dataset_despite_overlap},
          {"overlap_override", overridden},
          {"identity",
           "keyed hashes of the records (covariates, raw response) as parsed, in any file "
           "layout, of the file's rows (any column choice) and of the covariates alone; "
           "docs/security.md"}};
}

// Against the whole budget: (α_B, B)-RDP with |Λ| = 1 (the filter's theorem), and (ε_B, δ_B).
std::optional<privacy::AttackRisk> budget_risk(const LedgerDecision& d) {
  if (!d.filter) return std::nullopt;
  const auto& f = *d.filter;
  const auto& b = f.budget();
  if (f.orders().size() == 1) {
    const double alpha = f.orders().front();
    return privacy::attack_risk(alpha, f.rdp_budget(alpha), b.epsilon, b.delta);
  }
  return privacy::attack_risk(0.0, -1.0, b.epsilon, b.delta);
}

json risk_json(const ReleaseAccounting& a, const std::optional<privacy::AttackRisk>& budget) {
  json j = privacy::to_json(a.risk);
  j["summary"] = privacy::risk_sentence(a.risk) + " (this release)";
  j["meaning"] =
      "the largest true-positive rate any membership test can reach at each false-positive rate";
  if (budget) {
    j["budget"] = privacy::to_json(*budget);
    j["budget"]["summary"] = privacy::risk_sentence(*budget) + " (the whole budget)";
  }
  return j;
}

}  // namespace

json privacy_json(const ReleaseRequest& q, const ReleaseAccounting& a) {
  const auto& m = a.mechanism;
  json parts = json::array();
  const json record = a.composition.record();
  for (const auto& event : record["events"]) {
    // Each event alone (a choice among candidates: its envelope), replayed from the record.
    json one = record;
    one["events"] = json::array({event});
    const auto alone = privacy::Accountant::replay(one, "the release's privacy record")
                           .epsilon(q.delta, q.conversion);
    parts.push_back({{"event", event}, {"epsilon", alone.epsilon}});
  }
  json j{{"kernel", {{"name", m.kernel->name()}, {"ell", m.kernel->lengthscale()}}},
         {"theta", {{"ell", m.kernel->lengthscale()}, {"r", m.r}, {"sigma", m.sigma}}},
         {"eta", m.eta},
         {"mechanism", mechanism_json(m)},
         {"M_Y", m.M_Y},
         {"sensitivity", sensitivity_json(a)},
         {"draws", q.draws},
         {"guarantee", privacy::to_json(a.guarantee)},
         {"parts", parts},
         {"privacy_record", record}};
  if (q.selection) j["auto"] = q.selection->report;
  if (a.calibration) {
    j["calibration"] = {{"target_epsilon", a.calibration->goal.target_epsilon},
                        {"solved", privacy::to_string(a.calibration->goal.parameter)},
                        {"value", a.calibration->value},
                        {"note", a.calibration->note}};
  }
  return j;
}

namespace {

// The state a kept path starts with: the release's answers, unsnapped.
KeptPath kept_path_state(const ReleaseRequest& q, const ValidatedRelease& v,
                         const ReleaseAccounting& a, const ReleasedPaths& p,
                         const std::string& path_id) {
  KeptPath s;
  s.path_id = path_id;
  s.dataset_sha256 = v.prepared.sha256;
  s.input = q.input;
  s.input.x_columns = v.prepared.data.covariate_names;
  s.kernel = *a.mechanism.kernel;
  s.r = a.mechanism.r;
  s.sigma = a.mechanism.sigma;
  s.eta = a.mechanism.eta;
  s.threshold = q.threshold;
  s.lattice_exponent = p.lattice.exponent;
  s.ledger = std::filesystem::absolute(q.ledger_path).string();
  s.names = v.evaluation.names;
  for (const auto& path : p.paths) s.paths.push_back({path.points(), path.values()});
  if (p.prior_mean) s.offset = *p.prior_mean;  // the paths are of the responses about it
  if (p.table) {  // the grid mean: a fresh path of its post-processing GP, nothing answered yet
    const CellPosterior cp = cell_posterior(*p.table, a.mechanism);
    s.table = p.table;
    s.noise_scale = a.mechanism.noise_scale;
    s.count_noise = privacy::grid_mean_count_noise(a.mechanism);
    s.offset = cp.prior_mean;
    s.lattice_exponent = cell_path_lattice(cp, q.input.M_Y).exponent;
    s.paths.push_back({Points(0, v.prepared.data.dim()), Eigen::VectorXd(0)});
  }
  s.private_answers = !q.insecure_seed.has_value();
  s.history_key = random_hex_id() + random_hex_id();  // 32 bytes
  return s;
}

// The certificate without the ledger's part, and the kept path if the release keeps one.
Certified draft(const ReleaseRequest& q, const ValidatedRelease& v, const ReleaseAccounting& a,
                const ReleasedPaths& p) {
  Certified c;
  c.certificate = certificate_json(q, v, a, p);
  if (q.keep_path) {
    c.path_id = random_hex_id();
    c.certificate["kept_path_id"] = c.path_id;
    c.kept = kept_path_state(q, v, a, p, c.path_id);
  }
  return c;
}

Certified with_decision(const ReleaseRequest& q, const ReleaseAccounting& a, Certified c,
                        const LedgerDecision& decision) {
  c.decision = decision;
  c.budget_risk = budget_risk(c.decision);
  c.certificate["ledger"] = ledger_json(q.ledger_path, c.decision);
  c.certificate["dataset"] = dataset_json(a, c.decision);
  c.certificate["risk"] = risk_json(a, c.budget_risk);
  return c;
}

}  // namespace

Certified certify(const ReleaseRequest& q, const ValidatedRelease& v, const ReleaseAccounting& a,
                  const ReleasedPaths& p) {
  Certified c = draft(q, v, a, p);
  LedgerEntry entry = a.entry;
  entry.created = c.certificate["timestamp"].get<std::string>();
  entry.path_id = c.path_id;
  if (c.kept) {  // the path's history starts in the same transaction
    entry.path_start = path_generation(*c.kept);
    entry.path_private = c.kept->private_answers;
  }
  const LedgerDecision decision =
      Ledger(q.ledger_path, q.ledger_key_path)
          .record(entry, a.identity, q.budget, q.conversion, q.budget_orders);
  if (c.kept) c.kept->release_id = decision.id;
  return with_decision(q, a, std::move(c), decision);
}

Certified certify_reserved(const ReleaseRequest& q, const ValidatedRelease& v,
                           const ReleaseAccounting& a, const ReleasedPaths& p,
                           const LedgerDecision& decision) {
  require(!q.keep_path, "a release recorded before its draw keeps no path");
  Certified c = with_decision(q, a, draft(q, v, a, p), decision);
  c.certificate["ledger"]["recorded"] = "before the draw (release-batch; docs/security.md)";
  return c;
}

}  // namespace gpdp::release
