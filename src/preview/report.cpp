#include "gpdp/preview/report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/privacy/json.hpp"
#include "gpdp/version.hpp"

namespace gpdp::preview {

using nlohmann::json;

namespace {

constexpr Family kFamilies[] = {Family::Default,   Family::Smoothed,   Family::Vote,
                                Family::Eta,       Family::Functional, Family::SmallSigma,
                                Family::PriorMean, Family::GridMean,   Family::Sign};

json interval_json(const Interval& i) { return {{"mean", i.mean}, {"lo", i.lo}, {"hi", i.hi}}; }

json candidate_json(const CandidateResult& c, double delta, privacy::Conversion conversion) {
  json j{{"config", config_json(c.config, delta, conversion)},
         {"iou", interval_json(c.iou)},
         {"tuning_iou", c.tuning_iou}};
  if (c.bce) j["bce"] = interval_json(*c.bce);
  return j;
}

std::string describe(const ReleaseConfig& c) {
  const auto& m = c.mechanism;
  std::string s;
  if (m.kind == privacy::MechanismKind::Functional) {
    s = fmt::format("functional r={:.3g} s={:.3g}", m.r, m.noise_scale);
  } else if (m.kind == privacy::MechanismKind::GridMean) {
    s = fmt::format("grid mean {} cells s={:.3g}", fmt::join(m.cells, "x"), m.noise_scale);
  } else if (c.family == Family::SmallSigma) {
    s = fmt::format("r-cal r={:.3g} σ={:.3g}", m.r, m.sigma);
  } else if (c.prior_mean_noise > 0) {
    s = fmt::format("r-cal r={:.3g}, prior mean dp:{:.2g}", m.r, c.prior_mean_fraction);
  } else if (c.sign) {
    s = fmt::format("r-cal r={:.3g}, sign", m.r);
  } else if (c.solved == privacy::CalibrationParameter::Eta) {
    s = fmt::format("η-cal r={:.3g} η={:.3g}", m.r, m.eta);
  } else {
    s = fmt::format("r-cal r={:.3g}", m.r);
  }
  if (c.draws > 1) s += fmt::format(" L={} c={:.2g}", c.draws, c.vote_cutoff);
  if (c.smooth > 0) s += fmt::format(" h={:.3g}", c.smooth);
  return s;
}

json uncalibrated_json(const PreviewResult& r) {
  json j{{"calibrated", false},
         {"note",
          "uncalibrated: the simulations use public inputs only (prior fields or the proxy), so "
          "their share above the threshold may be far from the private data's; gpdp preview "
          "--calibrate-epsilon spends a small recorded ε to calibrate them"},
         {"simulated_share_above", r.simulated_share_above},
         {"proxy_share_above", nullptr},
         {"difference", nullptr}};
  if (r.proxy_share_above) {
    j["proxy_share_above"] = *r.proxy_share_above;
    j["difference"] = r.simulated_share_above - *r.proxy_share_above;
  }
  return j;
}

std::string uncalibrated_line(const PreviewResult& r) {
  std::string s = fmt::format(
      "prediction uncalibrated (public inputs only; --calibrate-epsilon calibrates it): simulated "
      "share of the area above t {:.3f}",
      r.simulated_share_above);
  if (r.proxy_share_above) {
    s += fmt::format(", the proxy's share of records above t {:.3f} (difference {:+.3f})",
                     *r.proxy_share_above, r.simulated_share_above - *r.proxy_share_above);
  } else {
    s += " (no public proxy to compare with)";
  }
  return s + "\n";
}

}  // namespace

json config_json(const ReleaseConfig& c, double delta, privacy::Conversion conversion) {
  const auto& m = c.mechanism;
  const bool functional = m.kind == privacy::MechanismKind::Functional;
  json j{{"family", to_string(c.family)},
         {"mechanism", privacy::to_string(m.kind)},
         {"solve", privacy::to_string(c.solved)},
         {"kernel", m.kernel->name()},
         {"ell", m.kernel->lengthscale()},
         {"r", m.r},
         {"draws", c.draws},
         {"vote_cutoff", c.vote_cutoff},
         {"smooth", c.smooth},
         {"epsilon", c.epsilon},
         {"delta", delta},
         {"conversion", privacy::to_string(conversion)},
         {"lemma", privacy::to_string(m.lemma)},
         {"n", m.n},
         {"M_Y", m.M_Y}};
  j.update(privacy::noise_json(m));
  if (!functional) {
    j["sigma"] = m.sigma;
    j["eta"] = m.eta;
  }
  if (c.prior_mean_noise > 0)
    j["prior_mean"] = {{"fraction", c.prior_mean_fraction}, {"noise_scale", c.prior_mean_noise}};
  if (c.sign) j["sign"] = true;
  return j;
}

json preview_json(const PreviewRequest& q, const PreviewResult& r, const json& inputs) {
  json results = json::array();
  for (const auto& e : r.results) {
    const CandidateResult& best = e.chosen();
    const CandidateResult* def = e.family_best(Family::Default);
    json candidates = json::array();
    for (const auto& c : e.candidates)
      candidates.push_back(candidate_json(c, q.delta, q.conversion));
    json item{
        {"epsilon", e.epsilon},           {"best", candidate_json(best, q.delta, q.conversion)},
        {"beats_chance", e.beats_chance}, {"gain_over_chance", interval_json(e.gain_over_chance)},
        {"candidates", candidates},       {"infeasible", e.infeasible}};
    if (def) {
      item["default"] = candidate_json(*def, q.delta, q.conversion);
      item["gain_over_default"] = best.iou.mean - def->iou.mean;
    }
    results.push_back(item);
  }
  return {{"format", "gpdp-preview-1"},
          {"gpdp_version", kVersion},
          {"epsilons", q.epsilons},
          {"delta", q.delta},
          {"conversion", privacy::to_string(q.conversion)},
          {"n", q.n},
          {"results", results},
          {"random_set_iou", r.random_set_iou.mean},
          {"nonprivate_iou", r.nonprivate_iou.mean},
          {"random_set_iou_interval", interval_json(r.random_set_iou)},
          {"nonprivate_iou_interval", interval_json(r.nonprivate_iou)},
          {"theta",
           {{"kernel", q.kernel},
            {"ell", r.ell},
            {"sigma", r.sigma},
            {"r_reference", r.r_reference},
            {"source", r.theta_source}}},
          {"inputs", inputs},
          {"simulations", {{"tuning", r.simulations}, {"held_out", r.simulations}}},
          {"seed", q.seed},
          {"rng", "seeded xoshiro256** (a simulation of public inputs; nothing is released)"},
          {"prior_sampler", r.prior_sampler},
          {"interval", "lo/hi: 5 % and 95 % quantiles over the held-out simulations"},
          {"reference",
           "IoU against the non-private posterior set {μ_D ≥ t} of the same simulated data at the "
           "reference θ (ℓ, σ, r_reference)"},
          {"calibration", uncalibrated_json(r)},
          {"seconds", r.seconds}};
}

std::string preview_table(const PreviewResult& r) {
  std::string out = fmt::format(
      "predicted IoU with the non-private set (mean [5%, 95%] over {} held-out simulations)\n",
      r.simulations);
  out += fmt::format("{:>6}  {:<48} {:<21}  {:<21}  {:>6}\n", "ε", "chosen configuration",
                     "IoU chosen", "IoU default", "gain");
  for (const auto& e : r.results) {
    const auto& b = e.chosen();
    const CandidateResult* d = e.family_best(Family::Default);
    const std::string chosen = to_string(b.config.family) + ": " + describe(b.config);
    out += fmt::format("{:>6.3g}  {:<48} {:<21}  {:<21}  {:>+6.3f}{}\n", e.epsilon, chosen,
                       fmt::format("{:.3f} [{:.3f}, {:.3f}]", b.iou.mean, b.iou.lo, b.iou.hi),
                       d ? fmt::format("{:.3f} [{:.3f}, {:.3f}]", d->iou.mean, d->iou.lo, d->iou.hi)
                         : std::string("—"),
                       d ? b.iou.mean - d->iou.mean : 0.0,
                       e.beats_chance ? "" : "  no better than chance");
  }
  out += fmt::format(
      "chance (whole region): {:.3f}   non-private path: {:.3f}   θ: ℓ = {:.4g}, σ = {:.4g}, "
      "reference r = {:.4g}\n",
      r.random_set_iou.mean, r.nonprivate_iou.mean, r.ell, r.sigma, r.r_reference);
  out += uncalibrated_line(r);
  return out;
}

std::string preview_plot(const PreviewResult& r, const std::string& format) {
  plot::Figure fig(960, 620);
  auto& ax = fig.panel();
  ax.title("gpdp preview: predicted IoU of the released set with the non-private set")
      .xlabel("ε (target)")
      .ylabel("IoU (mean over held-out simulations)")
      .xlog();
  std::vector<double> eps;
  for (const auto& e : r.results) eps.push_back(e.epsilon);
  int colour = 0;
  for (const Family f : kFamilies) {
    std::vector<double> xs, ys;
    for (const auto& e : r.results) {
      if (const auto* c = e.family_best(f)) {
        xs.push_back(e.epsilon);
        ys.push_back(c->iou.mean);
      }
    }
    if (!xs.empty()) ax.line(xs, ys, {.label = to_string(f), .color = plot::cycle_color(colour)});
    ++colour;
  }
  std::vector<double> by, lo, hi;
  for (const auto& e : r.results) {
    by.push_back(e.chosen().iou.mean);
    lo.push_back(e.chosen().iou.lo);
    hi.push_back(e.chosen().iou.hi);
  }
  ax.band(eps, lo, hi, {.label = "chosen: 5–95 %", .color = plot::colors::black, .alpha = 0.12});
  ax.scatter(eps, by, {.label = "chosen", .color = plot::colors::black, .size = 6.0});
  ax.hline(r.random_set_iou.mean,
           {.label = "chance (whole region)", .color = plot::colors::gray, .dashed = true});
  ax.hline(r.nonprivate_iou.mean,
           {.label = "non-private path", .color = plot::colors::black, .dashed = true});
  ax.ylim(0.0, 1.0);
  ax.legend(plot::LegendPosition::upper_left);
  return fig.render(format);
}

ChosenConfig chosen_config(const json& preview, double target_epsilon, const std::string& source) {
  try {
    require(preview.value("format", "") == "gpdp-preview-1",
            fmt::format("{}: not a gpdp preview file (format gpdp-preview-1)", source));
    for (const auto& e : preview.at("results")) {
      if (e.at("epsilon").get<double>() != target_epsilon) continue;
      return {e.at("best").at("config"), e.at("best").at("iou"), preview.at("delta").get<double>(),
              preview.at("conversion").get<std::string>()};
    }
    std::vector<double> have;
    for (const auto& e : preview.at("results")) have.push_back(e.at("epsilon").get<double>());
    throw InputError(fmt::format("{}: no result for ε = {} (the preview has ε = {})", source,
                                 target_epsilon, fmt::join(have, ", ")));
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: malformed preview file ({})", source, e.what()));
  }
}

}  // namespace gpdp::preview
