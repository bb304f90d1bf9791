// gpdp search: privacy-constrained hyperparameter selection for excursion-set release on a user's
// own PUBLIC data (paper eqs. 6–7; docs/utility.md "gpdp search").
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "command.hpp"
#include "gpdp/dataset.hpp"
#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/public_search.hpp"
#include "gpdp/experiments/utility_study.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/io/parse.hpp"

namespace gpdp::cli {

namespace gx = gpdp::experiments;

namespace {

struct SearchOptions {
  std::string data, validation;
  std::vector<std::string> x_columns;
  std::string y_column = "y";
  double target_epsilon = 10.0;
  double delta = 0.0;
  long n = 0;
  int paths = 1;
  double threshold = 0.0;
  std::string conversion = "mironov";
  std::string ell_range, r_range, sigma_range;
  int refine = 2;
  int threads = 0;
  std::string out;
  bool json = false;
};

// "lo:hi:count" → log-spaced axis.
void parse_range(const std::string& text, const char* flag, double& lo, double& hi, int& count) {
  if (text.empty()) return;
  const auto a = text.find(':');
  const auto b = text.find(':', a == std::string::npos ? a : a + 1);
  require(a != std::string::npos && b != std::string::npos,
          fmt::format("{} must be lo:hi:count, got '{}'", flag, text));
  lo = io::parse_double(text.substr(0, a), flag);
  hi = io::parse_double(text.substr(a + 1, b - a - 1), flag);
  count = static_cast<int>(io::parse_integer(text.substr(b + 1), flag));
  require(lo > 0 && hi >= lo && count >= 1,
          fmt::format("{}: need 0 < lo ≤ hi and count ≥ 1", flag));
}

void check_public_data(const Dataset& d, const std::string& flag) {
  require((d.X.array() >= 0.0).all() && (d.X.array() <= 1.0).all(),
          fmt::format(
              "{} {}: covariates must lie in [0,1]^d (the privacy bound uses κ on the unit box); "
              "rescale them by the declared domain first",
              flag, d.source));
}

void run(const SearchOptions& o) {
  const Dataset train = load_dataset(o.data, o.x_columns, o.y_column);
  const Dataset val = load_dataset(o.validation, o.x_columns, o.y_column);
  require(train.dim() == val.dim(), "--data and --validation have different numbers of covariates");
  check_public_data(train, "--data");
  check_public_data(val, "--validation");
  require(
      train.y.cwiseAbs().maxCoeff() <= 1.0,
      fmt::format("--data {}: responses must satisfy |y| ≤ M_Y = 1 (clip and rescale them as the "
                  "private data will be)",
                  train.source));
  require(o.target_epsilon > 0, "--target-epsilon must be positive");
  const long n = o.n > 0 ? o.n : train.n();
  const double delta = o.delta > 0 ? o.delta : std::pow(static_cast<double>(n), -1.1);
  require(delta < 1.0, fmt::format("--delta must be in (0, 1), got {}", delta));
  const int dim = train.dim();

  gx::PublicSearchSpec spec;
  spec.threshold = o.threshold;
  spec.target_epsilon = o.target_epsilon;
  spec.privacy.n = n;
  spec.privacy.dim = dim;
  spec.privacy.paths = o.paths;
  spec.privacy.delta = delta;
  spec.privacy.conversion = privacy::parse_conversion(o.conversion);
  spec.grid = gx::default_search_grid(dim == 1 ? 1 : 2);
  auto axis = [](std::vector<double>& v, const std::string& text, const char* flag) {
    double lo = v.front(), hi = v.back();
    int count = static_cast<int>(v.size());
    parse_range(text, flag, lo, hi, count);
    v = gx::SearchGrid::log_spaced(lo, hi, count, 1, 1, 1, 1, 1, 1).ell;
  };
  axis(spec.grid.ell, o.ell_range, "--ell-range");
  axis(spec.grid.r, o.r_range, "--r-range");
  axis(spec.grid.sigma, o.sigma_range, "--sigma-range");
  spec.refinement_rounds = o.refine;
  spec.threads = o.threads;
  spec.progress = [&](const std::string& s) {
    if (!o.json) std::fprintf(stderr, "search: %s\n", s.c_str());
  };
  const gx::PublicSearchResult res = gx::search_public_data(
      train.X, train.y, val.X, gx::indicator_at_least(val.y, o.threshold), spec);

  auto theta_json = [](const gx::ThetaChoice& c) {
    return nlohmann::json{{"ell", c.theta.ell},
                          {"r", c.theta.r},
                          {"sigma", c.theta.sigma},
                          {"mean_bce", c.mean_bce},
                          {"epsilon", std::isfinite(c.epsilon) ? c.epsilon : -1.0},
                          {"cutoff_C", c.cutoff_C},
                          {"validation_iou", c.validation_iou}};
  };
  const auto& free = res.unconstrained;
  const auto& priv = res.constrained;
  nlohmann::json j{{"train", train.source},
                   {"validation", val.source},
                   {"n_private", n},
                   {"dim", dim},
                   {"threshold", o.threshold},
                   {"target_epsilon", o.target_epsilon},
                   {"delta", delta},
                   {"paths", o.paths},
                   {"conversion", o.conversion},
                   {"privacy", spec.privacy.description()},
                   {"unconstrained", theta_json(free)},
                   {"private", theta_json(priv)},
                   {"candidates", res.candidates}};
  const std::string text = fmt::format(
      "unconstrained θ* : ℓ = {:.4g}, r = {:.4g}, σ = {:.4g}  (mean BCE {:.5g}, ε = {:.4g}, C = "
      "{:.2f}, IoU {:.3f})\n"
      "private θ_priv   : ℓ = {:.4g}, r = {:.4g}, σ = {:.4g}  (mean BCE {:.5g}, ε = {:.4g} < {}, C "
      "= {:.2f}, IoU {:.3f})\n"
      "privacy: {}\nUse θ_priv for the release: gpdp release ... --ell {:.6g} --r {:.6g} --sigma "
      "{:.6g}\n",
      free.theta.ell, free.theta.r, free.theta.sigma, free.mean_bce, free.epsilon, free.cutoff_C,
      free.validation_iou, priv.theta.ell, priv.theta.r, priv.theta.sigma, priv.mean_bce,
      priv.epsilon, o.target_epsilon, priv.cutoff_C, priv.validation_iou,
      spec.privacy.description(), priv.theta.ell, priv.theta.r, priv.theta.sigma);
  if (!o.out.empty()) io::write_file_atomic(o.out, j.dump(2) + "\n");
  std::fputs(o.json ? (j.dump(2) + "\n").c_str() : text.c_str(), stdout);
}

void setup(CLI::App& app) {
  auto o = std::make_shared<SearchOptions>();
  auto* sub = app.add_subcommand(
      "search",
      "Privacy-constrained hyperparameter selection for excursion-set release (paper eqs. 6-7).\n"
      "Fits the exponential-kernel GP to --data (PUBLIC training data, e.g. an earlier year) and\n"
      "scores θ = (ℓ, r, σ) by the mean BCE of p_D at the --validation covariates against the "
      "labels\n"
      "1{y_val ≥ t} (independent PUBLIC observations of the same field). Returns the best θ "
      "overall\n"
      "and the best θ with ε_L(θ) < --target-epsilon for a PRIVATE data set of --n records\n"
      "(Lemma B.7 in 1-D, B.1 otherwise; κ on the unit box). Neither file may be the private "
      "data:\n"
      "selecting θ on private data is not covered by the guarantee (paper §6).");
  sub->add_option("--data", o->data, "Public training CSV (covariates in [0,1]^d, |y| ≤ 1)")
      ->required();
  sub->add_option("--validation", o->validation, "Public validation CSV (same columns)")
      ->required();
  sub->add_option("--x", o->x_columns, "Covariate column names (default x1, x2, ...)")
      ->delimiter(',');
  sub->add_option("--y", o->y_column, "Response column")->capture_default_str();
  sub->add_option("--target-epsilon", o->target_epsilon, "ε₀: the private θ has ε_L(θ) < ε₀")
      ->capture_default_str();
  sub->add_option("--delta", o->delta, "δ (default n^(−1.1))");
  sub->add_option("--n", o->n,
                  "Size of the PRIVATE data set the release will use (default: rows of --data)");
  sub->add_option("--paths", o->paths, "L: released paths (composed)")->capture_default_str();
  sub->add_option("--threshold", o->threshold, "Excursion level t")->capture_default_str();
  sub->add_option("--conversion", o->conversion, "RDP→(ε,δ): mironov or cks")
      ->capture_default_str();
  sub->add_option("--ell-range", o->ell_range, "Coarse ℓ grid lo:hi:count (log-spaced)");
  sub->add_option("--r-range", o->r_range, "Coarse r grid lo:hi:count");
  sub->add_option("--sigma-range", o->sigma_range, "Coarse σ grid lo:hi:count");
  sub->add_option("--refine", o->refine, "Refinement rounds around the top 3")
      ->capture_default_str();
  sub->add_option("--threads", o->threads, "Worker threads (0 = all cores)");
  sub->add_option("--out", o->out, "Also write the JSON result to this file");
  sub->add_flag("--json", o->json, "Print JSON instead of text");
  sub->callback([o] { run(*o); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
