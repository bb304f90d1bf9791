#include "gpdp/preview/command.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "gpdp/error.hpp"
#include "gpdp/gis/geo_frame.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/preview/calibrated_preview.hpp"
#include "gpdp/preview/preview.hpp"
#include "gpdp/preview/report.hpp"
#include "gpdp/release/evaluation.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/version.hpp"
#include "io/atomic_file.hpp"

namespace gpdp::preview {

namespace {

// The release's own evaluation points (release/evaluation.hpp): grid, mask and domain check alike.
EvaluationPoints evaluation(const PreviewCommand& c) {
  std::vector<std::string> names = c.input.x_columns;
  if (names.empty())
    for (int i = 0; i < c.input.domain->dim(); ++i) names.push_back(fmt::format("x{}", i + 1));
  const release::Evaluation ev = release::load_evaluation(c.evaluation, names, *c.input.domain);
  EvaluationPoints e;
  e.points = ev.points;
  e.grid = ev.grid;
  e.cells = ev.cells;
  return e;
}

nlohmann::json inputs_json(const PreviewCommand& c, const PreviewRequest& q) {
  const release::InputSpec& spec = c.input;
  nlohmann::json j{
      {"domain", spec.domain->to_string()},
      {"threshold", c.threshold},
      {"threshold_model_units", q.level},
      {"transform", release::to_string(spec.transform)},
      {"center", spec.center.value_or(0.0)},
      {"scale", spec.scale.value_or(1.0)},
      {"M_Y", spec.M_Y},
      {"evaluation_points", q.evaluation.points.rows()},
      {"grid", c.grid_text},
      {"mask", c.mask.empty() ? nlohmann::json(nullptr)
                              : nlohmann::json(std::filesystem::path(c.mask).filename().string())},
      {"sensitivity", c.sensitivity},
      {"crs", spec.crs.empty() ? nlohmann::json(nullptr) : nlohmann::json(spec.crs)},
      {"model_crs",
       spec.model_crs.empty() ? nlohmann::json(nullptr) : nlohmann::json(spec.model_crs)}};
  if (q.proxy) {
    j["public_data"] = {{"file", q.proxy->source},
                        {"sha256", q.proxy->sha256},
                        {"records", q.proxy->X.rows()},
                        {"covariates", spec.x_columns},
                        {"response", spec.y_column}};
  } else {
    j["public_data"] = nullptr;
  }
  return j;
}

// The release request the calibrated preview's summary is drawn with: the data, the public options
// shared with `gpdp release` (input, kernel, ℓ, σ, r, threshold, δ, conversion, sensitivity,
// points) and the ledger.
release::ReleaseRequest calibration_request(const PreviewCommand& c) {
  release::ReleaseRequest q;
  q.data_path = c.data;
  q.input = c.input;
  q.mechanism.kind = privacy::MechanismKind::PosteriorSample;
  q.mechanism.kernel = Kernel::from_name(c.kernel, c.ell.value_or(1.0));
  q.mechanism.r = c.r.value_or(1.0);
  q.mechanism.sigma = c.sigma.value_or(1.0);
  q.mechanism.lemma = privacy::parse_sensitivity_lemma(c.sensitivity);
  q.delta = c.delta;
  q.conversion = privacy::parse_conversion(c.conversion);
  q.threshold = c.threshold;
  q.evaluation = c.evaluation;
  q.out_dir = c.out;
  q.dataset = c.dataset;
  q.ledger_path = c.ledger;
  q.ledger_key_path = c.ledger_key;
  q.budget = c.budget;
  q.insecure_seed = c.insecure_seed;
  q.auto_mechanism = release::AutoSpec{};
  return q;
}

// Everything that can refuse runs before the summary is drawn; the folder is written only after
// the ledger recorded the spend.
PreviewCommandOutcome run_calibrated(const PreviewCommand& c) {
  const release::ReleaseRequest q = calibration_request(c);
  const release::ValidatedRelease v = calibration_records(q);
  if (c.n && *c.n != v.prepared.data.n())
    throw ParameterError({"n", "data"}, fmt::format("n {} differs from the {} records of data",
                                                    *c.n, v.prepared.data.n()));
  const CalibratedPreview p = run_calibrated_preview(q, v, *c.calibrate_epsilon, c.epsilons);
  const nlohmann::json j{{"format", "gpdp-preview-calibrated-1"},
                         {"gpdp_version", kVersion},
                         {"epsilons", c.epsilons},
                         {"delta", c.delta},
                         {"conversion", c.conversion},
                         {"n", p.n},
                         {"calibration", calibrated_json(p)},
                         {"inputs",
                          {{"data", std::filesystem::path(c.data).filename().string()},
                           {"sha256", v.prepared.sha256},
                           {"threshold", c.threshold},
                           {"transform", release::to_string(c.input.transform)},
                           {"kernel", c.kernel},
                           {"ell", c.ell.value_or(1.0)},
                           {"sigma", c.sigma.value_or(1.0)},
                           {"r", c.r.value_or(1.0)}}}};
  const std::filesystem::path out(c.out);
  std::filesystem::create_directories(out);
  const std::string json_file = (out / "preview.json").string();
  io::write_file_atomic(json_file, j.dump(2) + "\n");
  return {j, calibrated_table(p) + fmt::format("wrote {}\n", json_file), {json_file}};
}

PreviewCommandOutcome run_uncalibrated(const PreviewCommand& c,
                                       const std::function<void(const std::string&)>& progress) {
  const release::InputSpec& spec = c.input;
  PreviewRequest q;
  q.domain = *spec.domain;
  q.evaluation = evaluation(c);
  // With a crs, as in gpdp release: the model works in the model CRS (the proxy is projected by
  // prepare_data, the evaluation points here); the grid and its smoothing stay declared.
  if (!spec.crs.empty()) {
    const gis::GeoFrame geo(spec.crs, spec.model_crs, *spec.domain);
    q.domain = geo.model_domain();
    q.evaluation.points = geo.to_model(q.evaluation.points, "evaluation points");
    if (geo.reprojects()) {
      q.evaluation.grid_is_model_lattice = false;
      q.declared_domain = *spec.domain;
    }
  }
  const double center = spec.center.value_or(0.0), scale = spec.scale.value_or(1.0);
  q.level = (c.threshold - center) / scale;
  q.M_Y = spec.M_Y;
  q.n = *c.n;
  q.epsilons = c.epsilons;
  q.delta = c.delta;
  q.conversion = privacy::parse_conversion(c.conversion);
  q.lemma = privacy::parse_sensitivity_lemma(c.sensitivity);
  q.kernel = c.kernel;
  q.ell = c.ell;
  q.sigma = c.sigma;
  q.r_reference = c.r;
  if (!c.public_data.empty()) {
    const release::PreparedData proxy = release::prepare_data(c.public_data, spec);
    q.proxy = ProxyData{proxy.data.X, proxy.data.y,
                        std::filesystem::path(c.public_data).filename().string(), proxy.sha256};
  }
  q.draws = c.draws;
  q.bandwidth_factors = c.bandwidths;
  q.functional = c.functional;
  q.grid_mean = c.grid_mean;
  q.sign = c.sign;
  q.sigma_factors = c.sigma_factors;
  q.prior_mean_fraction = c.prior_mean_fraction;
  q.simulations = c.simulations;
  q.seed = c.seed;
  q.threads = c.threads;
  q.progress = progress;

  const PreviewResult result = run_preview(q);
  const nlohmann::json j = preview_json(q, result, inputs_json(c, q));
  const std::filesystem::path out(c.out);
  std::filesystem::create_directories(out);
  const std::string json_file = (out / "preview.json").string();
  const std::string plot_file = (out / ("preview." + c.image)).string();
  io::write_file_atomic(json_file, j.dump(2) + "\n");
  io::write_file_atomic(plot_file, preview_plot(result, c.image));
  return {j,
          preview_table(result) +
              fmt::format("wrote {} and {} ({:.1f} s)\n", json_file, plot_file, result.seconds),
          {json_file, plot_file}};
}

}  // namespace

PreviewCommandOutcome run_preview_command(const PreviewCommand& c,
                                          const std::function<void(const std::string&)>& progress) {
  return c.calibrate_epsilon ? run_calibrated(c) : run_uncalibrated(c, progress);
}

}  // namespace gpdp::preview
