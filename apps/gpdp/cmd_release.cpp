// gpdp release: the main job. Private records in; released posterior sample paths, the excursion
// map, GeoJSON and a certificate out; the privacy budget of the named dataset kept in a ledger.
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/preview/release_config.hpp"
#include "gpdp/release/release.hpp"
#include "gpdp/release/release_options.hpp"
#include "options.hpp"
#include "privacy_options.hpp"
#include "release_options.hpp"
#include "release_summary.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

struct ReleaseFlags {
  DataOptions data;
  InputFlags input;
  KernelOptions kernel;
  HyperOptions hyper;
  MechanismOptions mechanism;
  AccountingOptions accounting;
  PointsOptions points;
  std::string lemma;  // deprecated spelling of --sensitivity
  double target_epsilon = 0.0;
  std::string solve = "r";
  double threshold = 0.0;
  double vote_cutoff = 0.5;
  double smooth = 0.0;
  std::string cells;
  std::string grid_map;
  std::string prior_mean;
  std::string sampler = "auto";
  double snap_covariates = 0.0;
  std::string out;
  std::string image = "png";
  std::string dataset;
  bool new_dataset = false;
  std::string ledger;
  std::string ledger_key;
  double budget_epsilon = 0.0;
  double budget_delta = 0.0;
  std::vector<double> budget_orders;
  std::uint64_t seed = 0;
  PathKeyFlags key;
  std::string keep_path;
  std::string mask;
  std::string internal_eval;
  std::string config_from;
  double choose_fraction = 0.1;
  bool refuse_if_useless = false;
  bool json = false;
};

// The flags' names, help and defaults are the library's (release/release_options.hpp), shared
// with the batch manifest.
void add_flags(CLI::App* sub, ReleaseFlags& f, const std::vector<options::OptionSpec>& specs) {
  add_data_options(sub, f.data);
  add_input_flags(sub, f.input);
  add_kernel_options(sub, f.kernel);
  add_hyper_options(sub, f.hyper);
  add_mechanism_options(sub, f.mechanism, MechanismFlags::FromData);
  add_accounting_options(sub, f.accounting);
  add_points_options(sub, f.points);
  add_spec_option(sub, specs, "--lemma", f.lemma);
  add_spec_option(sub, specs, "--threshold", f.threshold);
  add_spec_option(sub, specs, "--vote-cutoff", f.vote_cutoff);
  add_spec_option(sub, specs, "--smooth", f.smooth);
  add_spec_option(sub, specs, "--cells", f.cells);
  add_spec_option(sub, specs, "--grid-map", f.grid_map);
  add_spec_option(sub, specs, "--prior-mean", f.prior_mean);
  add_spec_option(sub, specs, "--mask", f.mask);
  add_spec_option(sub, specs, "--sampler", f.sampler);
  add_spec_option(sub, specs, "--snap-covariates", f.snap_covariates);
  add_spec_option(sub, specs, "--out", f.out);
  add_spec_option(sub, specs, "--image", f.image);
  add_spec_option(sub, specs, "--dataset", f.dataset);
  sub->add_flag("--new-dataset-despite-overlap", f.new_dataset,
                find_spec(specs, "--new-dataset-despite-overlap").help);
  add_spec_option(sub, specs, "--ledger", f.ledger);
  add_spec_option(sub, specs, "--ledger-key", f.ledger_key);
}

void add_budget_flags(CLI::App* sub, ReleaseFlags& f,
                      const std::vector<options::OptionSpec>& specs) {
  auto* be = add_spec_option(sub, specs, "--budget-epsilon", f.budget_epsilon);
  auto* bd = add_spec_option(sub, specs, "--budget-delta", f.budget_delta);
  be->needs(bd);
  bd->needs(be);
  add_spec_option(sub, specs, "--budget-orders", f.budget_orders)->needs(be);
}

void add_target_flags(CLI::App* sub, ReleaseFlags& f,
                      const std::vector<options::OptionSpec>& specs) {
  auto* target = add_spec_option(sub, specs, "--target-epsilon", f.target_epsilon);
  add_spec_option(sub, specs, "--solve", f.solve)->needs(target);
}

// --config-from: the public parameters a preview chose for --target-epsilon, none given besides.
void add_config_from_flag(CLI::App* sub, ReleaseFlags& f,
                          const std::vector<options::OptionSpec>& specs) {
  auto* opt = add_spec_option(sub, specs, "--config-from", f.config_from);
  opt->needs(sub->get_option("--target-epsilon"));
  for (const char* name :
       {"--kernel", "--ell", "--r", "--sigma", "--eta", "--mechanism", "--noise-scale",
        "--sensitivity", "--lemma", "--kappa", "--Vn", "--Delta-n", "--rkhs-norm", "--draws",
        "--conversion", "--solve", "--vote-cutoff", "--smooth"})
    if (auto* other = sub->get_option_no_throw(name)) opt->excludes(other);
}

// --lemma is the old spelling of --sensitivity: still accepted, with a note.
void apply_deprecated_lemma(ReleaseFlags& f, const CLI::App* sub) {
  if (sub->count("--lemma") == 0) return;
  require(sub->count("--sensitivity") == 0,
          "give --sensitivity or its old spelling --lemma, not both");
  std::fprintf(stderr,
               "gpdp: note: --lemma is deprecated; use --sensitivity (the same flag as in gpdp "
               "account and gpdp calibrate)\n");
  f.mechanism.sensitivity = f.lemma;
}

// --mechanism auto: the candidates are chosen by the release (auto_mechanism.hpp); the flags that
// fix what auto chooses, or belong to one mechanism, are refused.
std::optional<release::AutoSpec> auto_spec(ReleaseFlags& f, const CLI::App* sub) {
  const bool chosen = f.mechanism.mechanism == "auto";
  for (const char* flag : {"--choose-fraction", "--refuse-if-useless"})
    require_parameter(chosen || sub->count(flag) == 0, flag,
                      fmt::format("{} belongs to --mechanism auto", flag));
  if (!chosen) return std::nullopt;
  for (const char* flag : {"--solve", "--noise-scale", "--cells", "--grid-map", "--prior-mean",
                           "--config-from", "--snap-covariates"})
    require_parameter(sub->count(flag) == 0, flag,
                      fmt::format("--mechanism auto chooses {} itself; leave it out", flag));
  require_parameter(sub->count("--target-epsilon") > 0, "--target-epsilon",
                    "--mechanism auto needs --target-epsilon (the total ε, the choosing included)");
  f.mechanism.mechanism = "posterior-sample";  // the base the candidates start from
  return release::AutoSpec{f.choose_fraction, f.refuse_if_useless};
}

release::ReleaseRequest to_request(ReleaseFlags& f, const CLI::App* sub) {
  apply_deprecated_lemma(f, sub);
  release::ReleaseRequest q;
  q.auto_mechanism = auto_spec(f, sub);
  q.data_path = f.data.path;
  q.input = to_input_spec(f.data, f.input, sub);
  to_hyperparameters(f.hyper);  // a release needs a finite σ
  // The grid mean solves its noise scale (its only calibration) unless told otherwise.
  if (f.mechanism.mechanism == "grid-mean" && sub->count("--solve") == 0) f.solve = "noise";
  // The noise scale is solved by --target-epsilon --solve noise: no s to give.
  if (std::isnan(f.mechanism.noise_scale) && f.solve == "noise" &&
      sub->count("--target-epsilon") > 0)
    f.mechanism.noise_scale = 1.0;
  q.mechanism = to_mechanism_parameters(f.mechanism, f.kernel, f.hyper);
  q.conversion = to_conversion(f.accounting);
  q.draws = static_cast<int>(f.accounting.draws);
  q.delta = f.accounting.delta;
  if (sub->count("--target-epsilon") > 0) {
    q.calibration =
        release::CalibrationGoal{privacy::parse_calibration_parameter(f.solve), f.target_epsilon};
  }
  q.threshold = f.threshold;
  q.vote_cutoff = f.vote_cutoff;
  q.smooth = f.smooth;
  if (!f.cells.empty()) q.cells = release::parse_cells(f.cells);
  if (!f.grid_map.empty()) q.grid_map = release::parse_grid_map(f.grid_map);
  if (!f.prior_mean.empty()) q.prior_mean = release::parse_prior_mean(f.prior_mean);
  q.evaluation = to_evaluation_spec(f.points, f.mask);
  q.sampler = parse_sampler_method(f.sampler);
  if (sub->count("--snap-covariates") > 0) q.snap_covariates = f.snap_covariates;
  q.out_dir = f.out;
  q.image_format = release::parse_image_format(f.image);
  q.dataset = f.dataset;
  q.new_dataset_despite_overlap = f.new_dataset;
  q.ledger_path = f.ledger;
  q.ledger_key_path = f.ledger_key;
  if (sub->count("--budget-epsilon") > 0) {
    q.budget = privacy::Budget{f.budget_epsilon, f.budget_delta};
    q.budget_orders = f.budget_orders;
  }
  if (sub->count("--insecure-seed") > 0) q.insecure_seed = f.seed;
  if (!f.keep_path.empty()) q.keep_path = release::KeepPath{f.keep_path, to_path_key(f.key)};
  q.internal_eval_dir = f.internal_eval;
  if (!f.config_from.empty()) preview::apply_preview_config(f.config_from, f.target_epsilon, q);
  return q;
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "release",
      "Release private sample path(s) of the GP posterior and the excursion map {f ≥ t} derived\n"
      "from them, with an (ε, δ) certificate, under the privacy budget of a named dataset kept\n"
      "in a ledger. Example:\n"
      "  gpdp release --data d.csv --x lon,lat --y pm10 --domain 0:1,0:1 --M-Y 1 --kernel exp \\\n"
      "    --ell 0.2 --r 2 --sigma 1 --grid2d 0:1:64,0:1:64 --threshold 0 --delta 1e-4 \\\n"
      "    --dataset pm10-2024 --ledger budget.sqlite --budget-epsilon 2 --budget-delta 1e-4 \\\n"
      "    --out release1\n"
      "Writes into --out (a new or empty folder): draws.csv, map.png|svg, excursion.geojson "
      "(2-D),\n"
      "certificate.json. Only functions of the released paths are written there.");
  auto f = std::make_shared<ReleaseFlags>();
  const auto specs = release::release_options();
  add_flags(sub, *f, specs);
  add_target_flags(sub, *f, specs);
  add_budget_flags(sub, *f, specs);
  add_config_from_flag(sub, *f, specs);
  add_spec_option(sub, specs, "--choose-fraction", f->choose_fraction);
  sub->add_flag("--refuse-if-useless", f->refuse_if_useless,
                find_spec(specs, "--refuse-if-useless").help);
  add_spec_option(sub, specs, "--insecure-seed", f->seed);
  add_path_key_flags(sub, f->key);
  add_spec_option(sub, specs, "--keep-path", f->keep_path);
  add_spec_option(sub, specs, "--internal-eval", f->internal_eval);
  sub->add_flag("--json", f->json, find_spec(specs, "--json").help);
  sub->callback([f, sub] {
    const auto outcome = release::run_release(to_request(*f, sub));
    for (const auto& w : outcome.summary.value("warnings", nlohmann::json::array()))
      std::fprintf(stderr, "gpdp release: warning: %s\n", w.get<std::string>().c_str());
    if (f->json) {
      fmt::print("{}\n", outcome.summary.dump(2));
    } else {
      fmt::print("{}", format_release_summary(outcome.summary));
    }
  });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
