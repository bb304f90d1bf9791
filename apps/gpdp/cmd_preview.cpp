// gpdp preview: know the map before you spend the budget. Simulates releases from PUBLIC inputs
// only (the release's public flags, the private data set's size n, public proxy data or prior
// fields) and predicts the utility of each candidate configuration per ε; the private file is
// never opened and no budget is spent. With --calibrate-epsilon E_s (and --data, --dataset,
// --ledger) it instead spends E_s, recorded in the ledger, on `--mechanism auto`'s DP summary and
// predicts auto's candidates on simulations calibrated by it (preview/calibrated_preview.hpp).
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/gis/geo_frame.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/preview/calibrated_preview.hpp"
#include "gpdp/preview/preview.hpp"
#include "gpdp/preview/report.hpp"
#include "gpdp/release/evaluation.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/version.hpp"
#include "options.hpp"
#include "release_options.hpp"

namespace gpdp::cli {

namespace {

struct PreviewFlags {
  InputFlags input;
  std::string public_data;
  std::vector<std::string> x_columns;
  std::string y_column = "y";
  KernelOptions kernel;
  double sigma = 1.0;
  double r = 1.0;
  PointsOptions points;
  std::string mask;
  double threshold = 0.0;
  std::string sensitivity = "b1-sharp";
  double delta = 0.0;
  std::string conversion = "cks";
  long n = 0;
  std::vector<double> epsilons;
  std::vector<int> draws = {1, 3, 5, 9};
  std::vector<double> bandwidths = {0.5, 1.0, 2.0};
  bool no_functional = false;
  bool no_grid_mean = false;
  bool no_sign = false;
  std::vector<double> sigma_factors = {0.1};
  double prior_mean_fraction = 0.1;
  int simulations = 16;
  std::uint64_t seed = 1;
  int threads = 0;
  std::string out;
  std::string image = "png";
  bool json = false;
  bool quiet = false;
  // --calibrate-epsilon: the private records, their ledger and the summary's ε.
  double calibrate_epsilon = 0.0;
  std::string data;
  std::string dataset;
  std::string ledger;
  std::string ledger_key;
  double budget_epsilon = 0.0;
  double budget_delta = 0.0;
  std::uint64_t insecure_seed = 0;
};

// The release's own evaluation points (release/evaluation.hpp): grid, mask and domain check alike.
preview::EvaluationPoints evaluation(const PreviewFlags& f, const release::InputSpec& spec) {
  std::vector<std::string> names = spec.x_columns;
  if (names.empty())
    for (int i = 0; i < spec.domain->dim(); ++i) names.push_back(fmt::format("x{}", i + 1));
  const release::Evaluation ev =
      release::load_evaluation(to_evaluation_spec(f.points, f.mask), names, *spec.domain);
  preview::EvaluationPoints e;
  e.points = ev.points;
  e.grid = ev.grid;
  e.cells = ev.cells;
  return e;
}

nlohmann::json inputs_json(const PreviewFlags& f, const release::InputSpec& spec,
                           const preview::PreviewRequest& q) {
  nlohmann::json j{
      {"domain", spec.domain->to_string()},
      {"threshold", f.threshold},
      {"threshold_model_units", q.level},
      {"transform", release::to_string(spec.transform)},
      {"center", spec.center.value_or(0.0)},
      {"scale", spec.scale.value_or(1.0)},
      {"M_Y", spec.M_Y},
      {"evaluation_points", q.evaluation.points.rows()},
      {"grid", !f.points.grid2d.empty() ? f.points.grid2d : f.points.grid},
      {"mask", f.mask.empty() ? nlohmann::json(nullptr)
                              : nlohmann::json(std::filesystem::path(f.mask).filename().string())},
      {"sensitivity", f.sensitivity},
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

// The release request the calibrated preview's summary is drawn with: the data, the public flags
// shared with `gpdp release` (input, kernel, ℓ, σ, r, threshold, δ, conversion, sensitivity,
// points) and the ledger.
release::ReleaseRequest calibration_request(const PreviewFlags& f, const CLI::App* sub,
                                            const release::InputSpec& spec) {
  release::ReleaseRequest q;
  q.data_path = f.data;
  q.input = spec;
  q.mechanism.kind = privacy::MechanismKind::PosteriorSample;
  q.mechanism.kernel = to_kernel(f.kernel);
  q.mechanism.r = f.r;
  q.mechanism.sigma = f.sigma;
  q.mechanism.lemma = privacy::parse_sensitivity_lemma(f.sensitivity);
  q.delta = f.delta;
  q.conversion = privacy::parse_conversion(f.conversion);
  q.threshold = f.threshold;
  q.evaluation = to_evaluation_spec(f.points, f.mask);
  q.out_dir = f.out;
  q.dataset = f.dataset;
  q.ledger_path = f.ledger;
  q.ledger_key_path = f.ledger_key;
  if (sub->count("--budget-epsilon") > 0)
    q.budget = privacy::Budget{f.budget_epsilon, f.budget_delta};
  if (sub->count("--insecure-seed") > 0) q.insecure_seed = f.insecure_seed;
  q.auto_mechanism = release::AutoSpec{};
  return q;
}

// --calibrate-epsilon: everything that can refuse runs before the summary is drawn; the folder is
// written only after the ledger recorded the spend.
void run_calibrated(const PreviewFlags& f, const CLI::App* sub, const release::InputSpec& spec) {
  require_parameter(
      std::isfinite(f.calibrate_epsilon) && f.calibrate_epsilon > 0, "--calibrate-epsilon",
      fmt::format("--calibrate-epsilon must be positive and finite, got {}", f.calibrate_epsilon));
  for (const char* flag : {"--data", "--dataset", "--ledger"})
    require_parameter(sub->count(flag) > 0, flag,
                      fmt::format("--calibrate-epsilon spends ε on the private records: it needs "
                                  "--data, --dataset and --ledger ({} is missing); nothing was "
                                  "spent",
                                  flag));
  require_parameter(f.public_data.empty(), "--public-data",
                    "--calibrate-epsilon calibrates the simulations by the private summary: "
                    "leave --public-data out");
  const release::ReleaseRequest q = calibration_request(f, sub, spec);
  const release::ValidatedRelease v = preview::calibration_records(q);
  require_parameter(
      sub->count("--n") == 0 || f.n == v.prepared.data.n(), "--n",
      fmt::format("--n {} differs from the {} records of --data", f.n, v.prepared.data.n()));
  const preview::CalibratedPreview p =
      preview::run_calibrated_preview(q, v, f.calibrate_epsilon, f.epsilons);
  const nlohmann::json j{{"format", "gpdp-preview-calibrated-1"},
                         {"gpdp_version", kVersion},
                         {"epsilons", f.epsilons},
                         {"delta", f.delta},
                         {"conversion", f.conversion},
                         {"n", p.n},
                         {"calibration", preview::calibrated_json(p)},
                         {"inputs",
                          {{"data", std::filesystem::path(f.data).filename().string()},
                           {"sha256", v.prepared.sha256},
                           {"threshold", f.threshold},
                           {"transform", release::to_string(spec.transform)},
                           {"kernel", f.kernel.kernel},
                           {"ell", f.kernel.ell},
                           {"sigma", f.sigma},
                           {"r", f.r}}}};
  const std::filesystem::path out(f.out);
  std::filesystem::create_directories(out);
  io::write_file_atomic((out / "preview.json").string(), j.dump(2) + "\n");
  if (f.json) {
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("{}", preview::calibrated_table(p));
    fmt::print("wrote {}\n", (out / "preview.json").string());
  }
}

void run(const PreviewFlags& f, const CLI::App* sub) {
  DataOptions columns;
  columns.x_columns = f.x_columns;
  columns.y_column = f.y_column;
  release::InputSpec spec = to_input_spec(columns, f.input, sub);
  if (sub->count("--calibrate-epsilon") > 0) return run_calibrated(f, sub, spec);
  for (const char* flag :
       {"--data", "--dataset", "--ledger", "--ledger-key", "--budget-epsilon", "--insecure-seed"})
    require_parameter(sub->count(flag) == 0, flag,
                      fmt::format("{} belongs to --calibrate-epsilon (the preview without it "
                                  "reads no private data)",
                                  flag));
  require_parameter(sub->count("--n") > 0, "--n",
                    "--n (the private data set's size) is required without --calibrate-epsilon");
  preview::PreviewRequest q;
  q.domain = *spec.domain;
  q.evaluation = evaluation(f, spec);
  // With --crs, as in gpdp release: the model works in the model CRS (the proxy is projected by
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
  q.level = (f.threshold - center) / scale;
  q.M_Y = spec.M_Y;
  q.n = f.n;
  q.epsilons = f.epsilons;
  q.delta = f.delta;
  q.conversion = privacy::parse_conversion(f.conversion);
  q.lemma = privacy::parse_sensitivity_lemma(f.sensitivity);
  q.kernel = f.kernel.kernel;
  if (sub->count("--ell") > 0) q.ell = f.kernel.ell;
  if (sub->count("--sigma") > 0) q.sigma = f.sigma;
  if (sub->count("--r") > 0) q.r_reference = f.r;
  if (!f.public_data.empty()) {
    const release::PreparedData proxy = release::prepare_data(f.public_data, spec);
    q.proxy =
        preview::ProxyData{proxy.data.X, proxy.data.y,
                           std::filesystem::path(f.public_data).filename().string(), proxy.sha256};
  }
  q.draws = f.draws;
  q.bandwidth_factors = f.bandwidths;
  q.functional = !f.no_functional;
  q.grid_mean = !f.no_grid_mean;
  q.sign = !f.no_sign;
  q.sigma_factors = f.sigma_factors;
  q.prior_mean_fraction = f.prior_mean_fraction;
  q.simulations = f.simulations;
  q.seed = f.seed;
  q.threads = f.threads;
  if (!f.quiet) q.progress = [](const std::string& s) { fmt::print(stderr, "{}\n", s); };
  require(f.image == "png" || f.image == "svg", "--image must be png or svg");

  const preview::PreviewResult result = preview::run_preview(q);
  const nlohmann::json j = preview::preview_json(q, result, inputs_json(f, spec, q));
  const std::filesystem::path out(f.out);
  std::filesystem::create_directories(out);
  io::write_file_atomic((out / "preview.json").string(), j.dump(2) + "\n");
  io::write_file_atomic((out / ("preview." + f.image)).string(),
                        preview::preview_plot(result, f.image));
  if (f.json) {
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("{}", preview::preview_table(result));
    fmt::print("wrote {} and {} ({:.1f} s)\n", (out / "preview.json").string(),
               (out / ("preview." + f.image)).string(), result.seconds);
  }
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "preview",
      "Predict the utility of a release before spending any budget: simulates releases from\n"
      "PUBLIC inputs only (the release's public flags, the private data set's size --n, public\n"
      "proxy data --public-data or, without it, prior fields at the public θ) and reports, per\n"
      "ε target and candidate configuration (r- or η-calibrated paths, L paths with a vote\n"
      "cutoff, smoothing, the functional mechanism), the IoU of the released set with the\n"
      "non-private set. Reads no private data and spends nothing; the report says the\n"
      "prediction is uncalibrated. With --calibrate-epsilon E_s --data --dataset --ledger it\n"
      "spends E_s (recorded in the ledger) on --mechanism auto's DP summary and predicts auto's\n"
      "candidates at each ε with an accuracy interval, calibrated by it.\n"
      "Example:\n"
      "  gpdp preview --domain 0:1,0:1 --grid2d 0:1:64,0:1:64 --threshold 0 --kernel exp \\\n"
      "    --ell 0.2 --sigma 1 --r 0.5 --delta 1e-4 --n 400 --epsilons 1,3,10 --out prev\n"
      "Writes DIR/preview.json and DIR/preview.png and prints a table; `gpdp release\n"
      "--config-from DIR/preview.json --target-epsilon E` releases with the configuration\n"
      "chosen for E. docs/utility.md measures how far predictions are from realised maps.");
  auto f = std::make_shared<PreviewFlags>();
  add_input_flags(sub, f->input);
  sub->add_option("--public-data", f->public_data,
                  "Public proxy data with the release's columns (an earlier year, a neighbouring "
                  "region): simulated private sets resample it and θ is chosen on it");
  sub->add_option("--x", f->x_columns,
                  "Covariate columns of --public-data AND the coordinate columns of --mask "
                  "(default x1, x2, ...), as in gpdp release")
      ->delimiter(',');
  sub->add_option("--y", f->y_column, "Response column of --public-data")->capture_default_str();
  add_kernel_options(sub, f->kernel);
  sub->add_option("--sigma", f->sigma,
                  "Prior scale σ (default: chosen on --public-data; required without it)");
  sub->add_option("--r", f->r,
                  "Ridge r of the non-private reference posterior and of the simulated noise "
                  "(default: chosen on --public-data; required without it)");
  add_points_options(sub, f->points);
  sub->add_option("--mask", f->mask,
                  "Public CSV of points: with --grid2d, evaluate only the cells within half a "
                  "step of one of them (as gpdp release); its coordinate columns are named by "
                  "--x (default x1, x2)");
  sub->add_option("--threshold,-t", f->threshold,
                  "Excursion threshold t in response units (after --transform)")
      ->required();
  sub->add_option(
         "--sensitivity", f->sensitivity,
         "Δ_n lemma, as gpdp release: b1-sharp (Lemma S.1, the default), b1 (Lemma "
         "B.1), b4 (constant kernel), b5 (diagonal kernel), b7 (exponential kernel in 1-D)")
      ->capture_default_str();
  sub->add_option("--delta", f->delta, "δ of the (ε, δ) guarantee")->required();
  sub->add_option("--conversion", f->conversion, "RDP → (ε, δ): cks or mironov")
      ->capture_default_str();
  sub->add_option("--n", f->n,
                  "Size of the private data set (public; required without --calibrate-epsilon, "
                  "where it is --data's)");
  sub->add_option("--epsilons", f->epsilons, "ε targets, e.g. 1,3,10")->delimiter(',')->required();
  sub->add_option("--draws-grid", f->draws, "Numbers of paths L tried (the first must be 1)")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--bandwidths", f->bandwidths,
                  "Smoothing bandwidths tried besides none, as multiples of ℓ (at most a quarter "
                  "of the grid's shorter side; 2-D grids)")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_flag("--no-functional", f->no_functional,
                "Leave the functional Gaussian mechanism out of the candidates");
  sub->add_flag("--no-grid-mean", f->no_grid_mean, "Leave the grid mean out of the candidates");
  sub->add_flag("--no-sign", f->no_sign,
                "Leave the sign-clipped responses out of the candidates (tried only when the "
                "threshold is the centre)");
  sub->add_option("--sigma-factors", f->sigma_factors,
                  "Small-σ candidates: r-calibrated at σ × these (empty: none)")
      ->delimiter(',')
      ->capture_default_str();
  sub->add_option("--prior-mean-fraction", f->prior_mean_fraction,
                  "Private prior mean candidates: the fraction of ε spent on the mean (0: none)")
      ->capture_default_str();
  sub->add_option("--simulations", f->simulations,
                  "Simulated private sets per half (tuning, held out)")
      ->capture_default_str();
  sub->add_option("--seed", f->seed, "Seed of the simulations (the preview is reproducible)")
      ->capture_default_str();
  sub->add_option("--threads", f->threads, "Worker threads (0 = all cores)")->capture_default_str();
  sub->add_option("--out,-o", f->out, "Folder for preview.json and preview.png")->required();
  sub->add_option("--image", f->image, "Plot format: png or svg")->capture_default_str();
  sub->add_flag("--json", f->json, "Print preview.json instead of the table");
  sub->add_flag("--quiet", f->quiet, "No progress on stderr");
  sub->add_option("--calibrate-epsilon", f->calibrate_epsilon,
                  "Spend this ε (recorded in --ledger as a release of --dataset) on `--mechanism "
                  "auto`'s DP summary of --data and predict auto's candidates, each calibrated to "
                  "every --epsilons target, on simulations calibrated by it: accuracy with a "
                  "5-95 % interval and IoU per candidate (docs/utility.md \"A calibrated "
                  "preview\"). Without it the prediction is uncalibrated (public inputs only)");
  sub->add_option("--data", f->data,
                  "With --calibrate-epsilon: the private records (CSV with the --x and --y "
                  "columns), read through the same input options as gpdp release");
  sub->add_option("--dataset", f->dataset,
                  "With --calibrate-epsilon: the dataset the summary's ε is charged to");
  sub->add_option("--ledger", f->ledger,
                  "With --calibrate-epsilon: the budget ledger (SQLite; created if missing)");
  sub->add_option("--ledger-key", f->ledger_key,
                  "With --calibrate-epsilon: the ledger's key (default: <ledger>.key)");
  auto* be = sub->add_option("--budget-epsilon", f->budget_epsilon,
                             "With --calibrate-epsilon: the dataset's total ε budget (fixed at "
                             "its first release)");
  auto* bd = sub->add_option("--budget-delta", f->budget_delta,
                             "With --calibrate-epsilon: the dataset's total δ budget");
  be->needs(bd);
  bd->needs(be);
  sub->add_option("--insecure-seed", f->insecure_seed,
                  "With --calibrate-epsilon: seed the summary's RNG (reproducible, NOT PRIVATE: "
                  "the report says so); default: the secure generator");
  sub->callback([f, sub] { run(*f, sub); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
