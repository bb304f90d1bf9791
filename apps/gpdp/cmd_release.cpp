// gpdp release: the main job. Private records in; released posterior sample paths, the excursion
// map, GeoJSON and a certificate out; the privacy budget kept in a ledger.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/release/release.hpp"
#include "options.hpp"
#include "release_options.hpp"

namespace gpdp::cli {

namespace {

struct ReleaseFlags {
  DataOptions data;
  InputFlags input;
  KernelOptions kernel;
  HyperOptions hyper;
  PointsOptions points;
  std::string lemma = "b1";
  int draws = 1;
  double delta = 0.0;
  std::string conversion = "cks";
  double target_epsilon = 0.0;
  std::string solve = "r";
  double threshold = 0.0;
  double vote_cutoff = 0.5;
  double smooth = 0.0;
  std::string sampler = "auto";
  std::string out;
  std::string image = "png";
  std::string ledger;
  double budget_epsilon = 0.0;
  double budget_delta = 0.0;
  std::uint64_t seed = 0;
  PathKeyFlags key;
  std::string keep_path;
  std::string mask;
  std::string internal_eval;
  bool json = false;
};

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "release",
      "Release private sample path(s) of the GP posterior and the excursion map {f ≥ t} derived\n"
      "from them, with an (ε, δ) certificate, under a privacy budget kept in a ledger.\n"
      "Example:\n"
      "  gpdp release --data d.csv --x lon,lat --y pm10 --domain 0:1,0:1 --M-Y 1 --kernel exp \\\n"
      "    --ell 0.2 --r 2 --sigma 1 --grid2d 0:1:64,0:1:64 --threshold 0 --delta 1e-4 \\\n"
      "    --budget-epsilon 2 --budget-delta 1e-4 --out release1\n"
      "Writes into --out (a new or empty folder): draws.csv, map.png|svg, excursion.geojson "
      "(2-D),\n"
      "certificate.json. Only functions of the released paths are written there.");
  auto f = std::make_shared<ReleaseFlags>();
  add_data_options(sub, f->data);
  add_input_flags(sub, f->input);
  add_kernel_options(sub, f->kernel);
  add_hyper_options(sub, f->hyper);
  add_points_options(sub, f->points);
  sub->add_option("--lemma", f->lemma,
                  "Sensitivity bound Δ_n: b1 (generic), b1-sharp (generic, Lemma S.1, sharper; not "
                  "the default), b4 (constant kernel), b5 (diagonal), b7 (exponential kernel, 1-D "
                  "only: refused in 2-D, where it is false)")
      ->capture_default_str();
  sub->add_option("--draws,-L", f->draws, "Number L of independent sample paths")
      ->capture_default_str();
  sub->add_option("--delta", f->delta, "δ of the (ε, δ) guarantee, in (0, 1)")->required();
  sub->add_option("--conversion", f->conversion,
                  "RDP → (ε, δ): cks (Canonne–Kamath–Steinke) or mironov")
      ->capture_default_str();
  auto* target = sub->add_option("--target-epsilon", f->target_epsilon,
                                 "Calibrate: the smallest r (or η, see --solve) with ε ≤ this");
  sub->add_option("--solve", f->solve, "What --target-epsilon solves for: r or eta")
      ->capture_default_str()
      ->needs(target);
  sub->add_option("--threshold,-t", f->threshold,
                  "Excursion threshold t in response units (after --transform)")
      ->required();
  sub->add_option("--vote-cutoff", f->vote_cutoff,
                  "With L > 1: the released set is {fraction of paths ≥ t is ≥ c}")
      ->capture_default_str();
  sub->add_option("--smooth", f->smooth,
                  "2-D grids: Gaussian filter of this bandwidth (coordinate units) applied to the "
                  "released paths before thresholding (post-processing)")
      ->capture_default_str();
  sub->add_option("--mask", f->mask,
                  "Public CSV of points (same covariate columns): with --grid2d, evaluate only the "
                  "grid cells within half a step of one of them; the map leaves the rest blank");
  sub->add_option("--sampler", f->sampler, "Exact sampler: auto, dense, markov or pathwise")
      ->capture_default_str();
  sub->add_option("--out,-o", f->out, "Release folder (must not exist or be empty)")->required();
  sub->add_option("--image", f->image, "Map format: png or svg")->capture_default_str();
  sub->add_option("--ledger", f->ledger,
                  "Budget ledger (SQLite; default <data>.gpdp-ledger.sqlite)");
  auto* be = sub->add_option("--budget-epsilon", f->budget_epsilon,
                             "Total ε budget of this dataset (fixed at the first release)");
  auto* bd = sub->add_option("--budget-delta", f->budget_delta, "Total δ budget of this dataset");
  be->needs(bd);
  bd->needs(be);
  auto* seed = sub->add_option("--insecure-seed", f->seed,
                               "Seed the RNG (reproducible, NOT PRIVATE: the certificate says so)");
  add_path_key_flags(sub, f->key);
  sub->add_option("--keep-path", f->keep_path,
                  "Keep the released path's state (mode 0600, encrypted with --path-key or "
                  "--path-passphrase-env) for later 'gpdp query'; must lie outside --out");
  sub->add_option("--internal-eval", f->internal_eval,
                  "Also write the NON-PRIVATE posterior maps (μ_D, p_D), watermarked NOT FOR "
                  "RELEASE, into this folder (never --out)");
  sub->add_flag("--json", f->json, "Print the summary as JSON");
  sub->callback([f, sub, target, be, seed] {
    release::ReleaseRequest q;
    q.data_path = f->data.path;
    q.input = to_input_spec(f->data, f->input, sub);
    q.kernel = f->kernel.kernel;
    q.ell = f->kernel.ell;
    to_hyperparameters(f->hyper);
    q.r = f->hyper.r;
    q.sigma = f->hyper.sigma;
    q.eta = f->hyper.eta;
    q.lemma = privacy::parse_sensitivity_lemma(f->lemma);
    q.draws = f->draws;
    q.delta = f->delta;
    q.conversion = privacy::parse_conversion(f->conversion);
    if (target->count() > 0) {
      q.target_epsilon = f->target_epsilon;
      q.solve = f->solve;
    }
    q.threshold = f->threshold;
    q.vote_cutoff = f->vote_cutoff;
    q.smooth = f->smooth;
    const int given =
        !f->points.points_file.empty() + !f->points.grid.empty() + !f->points.grid2d.empty();
    require(given == 1,
            "give exactly one of --points FILE, --grid lo:hi:m, --grid2d lo:hi:m,lo:hi:m");
    if (!f->points.grid.empty() || !f->points.grid2d.empty()) {
      const bool one = !f->points.grid.empty();
      q.grid = Grid::parse(one ? f->points.grid : f->points.grid2d);
      require(q.grid->dim() == (one ? 1 : 2),
              one ? "--grid needs one axis lo:hi:m" : "--grid2d needs two axes lo:hi:nx,lo:hi:ny");
    }
    q.points_file = f->points.points_file;
    q.mask_file = f->mask;
    q.method = parse_sampler_method(f->sampler);
    q.out_dir = f->out;
    q.image_format = f->image;
    q.ledger_path = f->ledger;
    if (be->count() > 0) q.budget = release::Budget{f->budget_epsilon, f->budget_delta};
    if (seed->count() > 0) q.insecure_seed = f->seed;
    q.keep_path = f->keep_path;
    q.path_key = to_path_key(f->key);
    q.internal_eval_dir = f->internal_eval;
    const auto outcome = release::run_release(q);
    if (f->json) {
      fmt::print("{}\n", outcome.summary.dump(2));
    } else {
      fmt::print("{}", release::format_summary(outcome.summary));
    }
  });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
