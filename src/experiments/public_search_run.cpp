#include "gpdp/experiments/public_search_run.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

#include "gpdp/dataset.hpp"
#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/public_search.hpp"
#include "gpdp/experiments/search.hpp"
#include "io/atomic_file.hpp"
#include "io/load_dataset.hpp"
#include "parse.hpp"
#include "public_search_options.hpp"

namespace gpdp::experiments {

namespace {
using nlohmann::json;

// "lo:hi:count" → the log-spaced axis (the default axis `v` when empty); errors name `parameter`.
void parse_axis(std::vector<double>& v, const std::string& text, const std::string& parameter) {
  if (text.empty()) return;
  const auto a = text.find(':');
  const auto b = text.find(':', a == std::string::npos ? a : a + 1);
  require_parameter(a != std::string::npos && b != std::string::npos, parameter,
                    fmt::format("{} must be lo:hi:count, got '{}'", parameter, text));
  double lo = 0, hi = 0;
  long long count = 0;
  try {
    lo = parse_double(text.substr(0, a), parameter);
    hi = parse_double(text.substr(a + 1, b - a - 1), parameter);
    count = parse_integer(text.substr(b + 1), parameter);
  } catch (const InputError& e) {
    throw ParameterError({parameter}, e.what());
  }
  require_parameter(lo > 0 && hi >= lo && count >= 1, parameter,
                    fmt::format("{}: need 0 < lo ≤ hi and count ≥ 1", parameter));
  v = SearchGrid::log_spaced(lo, hi, static_cast<int>(count), 1, 1, 1, 1, 1, 1).ell;
}

void check_public_data(const Dataset& d, const std::string& parameter) {
  require_parameter(
      (d.X.array() >= 0.0).all() && (d.X.array() <= 1.0).all(), parameter,
      fmt::format("{} {}: covariates must lie in [0,1]^d (the privacy bound uses κ on the unit "
                  "box); rescale them by the declared domain first",
                  parameter, d.source));
}

// The two public data sets, checked.
std::pair<Dataset, Dataset> load_public_data(const PublicSearchRequest& o) {
  Dataset train = io::load_dataset(o.data, o.x, o.y);
  Dataset val = io::load_dataset(o.validation, o.x, o.y);
  if (train.dim() != val.dim())
    throw ParameterError({"data", "validation"},
                         "data and validation have different numbers of covariates");
  check_public_data(train, "data");
  check_public_data(val, "validation");
  require_parameter(
      train.y.cwiseAbs().maxCoeff() <= 1.0, "data",
      fmt::format("data {}: responses must satisfy |y| ≤ M_Y = 1 (clip and rescale them as the "
                  "private records will be)",
                  train.source));
  return {std::move(train), std::move(val)};
}

// The search's spec from the request, for training data of `rows` records in `dim` covariates.
PublicSearchSpec search_spec(const PublicSearchRequest& o, long rows, int dim) {
  require_parameter(o.target_epsilon > 0, "target_epsilon", "target_epsilon must be positive");
  PublicSearchSpec spec;
  spec.threshold = o.threshold;
  spec.target_epsilon = o.target_epsilon;
  spec.privacy.n = o.n > 0 ? o.n : rows;
  spec.privacy.dim = dim;
  spec.privacy.paths = o.paths;
  spec.privacy.delta = o.delta > 0 ? o.delta : std::pow(static_cast<double>(spec.privacy.n), -1.1);
  require_parameter(spec.privacy.delta < 1.0, "delta",
                    fmt::format("delta must be in (0, 1), got {}", spec.privacy.delta));
  spec.privacy.conversion = privacy::parse_conversion(o.conversion);
  spec.grid = default_search_grid(dim == 1 ? 1 : 2);
  parse_axis(spec.grid.ell, o.ell_range, "ell_range");
  parse_axis(spec.grid.r, o.r_range, "r_range");
  parse_axis(spec.grid.sigma, o.sigma_range, "sigma_range");
  spec.refinement_rounds = o.refine;
  return spec;
}

json choice_json(const ThetaChoice& c) {
  return {{"ell", c.theta.ell},
          {"r", c.theta.r},
          {"sigma", c.theta.sigma},
          {"mean_bce", c.mean_bce},
          {"epsilon", std::isfinite(c.epsilon) ? c.epsilon : -1.0},
          {"cutoff_C", c.cutoff_C},
          {"validation_iou", c.validation_iou}};
}

std::string report_text(const PublicSearchRequest& o, const PublicSearchSpec& spec,
                        const PublicSearchResult& res) {
  const auto& free = res.unconstrained;
  const auto& priv = res.constrained;
  return fmt::format(
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
}
}  // namespace

PublicSearchRequest public_search_request_from_json(const json& j) {
  options::check_request_keys(public_search_options(), j, "search");
  PublicSearchRequest o;
  o.data = j.value("data", o.data);
  o.validation = j.value("validation", o.validation);
  o.x = j.value("x", o.x);
  o.y = j.value("y", o.y);
  o.target_epsilon = options::real_or(j, "target-epsilon", o.target_epsilon);
  o.delta = options::real_or(j, "delta", o.delta);
  o.n = j.value("n", o.n);
  o.paths = j.value("paths", o.paths);
  o.threshold = options::real_or(j, "threshold", o.threshold);
  o.conversion = j.value("conversion", o.conversion);
  o.ell_range = j.value("ell-range", o.ell_range);
  o.r_range = j.value("r-range", o.r_range);
  o.sigma_range = j.value("sigma-range", o.sigma_range);
  o.refine = j.value("refine", o.refine);
  o.out = j.value("out", o.out);
  o.json = j.value("json", o.json);
  if (o.data.empty() || o.validation.empty())
    throw ParameterError({"data", "validation"}, "search: data and validation are required");
  return o;
}

std::function<void(const std::string&)> search_progress(bool quiet) {
  if (quiet) return {};
  // The search's lines name themselves ("search: …", "search (ε-constrained): …").
  return [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
}

std::string run_public_search(const PublicSearchRequest& o, tasks::Executor& executor,
                              const std::function<void(const std::string&)>& progress) {
  const auto [train, val] = load_public_data(o);
  PublicSearchSpec spec = search_spec(o, static_cast<long>(train.n()), train.dim());
  if (!o.json) spec.progress = progress;
  const PublicSearchResult res = search_public_data(
      train.X, train.y, val.X, indicator_at_least(val.y, o.threshold), spec, executor);
  const json j{{"train", train.source},
               {"validation", val.source},
               {"n_private", spec.privacy.n},
               {"dim", train.dim()},
               {"threshold", o.threshold},
               {"target_epsilon", o.target_epsilon},
               {"delta", spec.privacy.delta},
               {"paths", o.paths},
               {"conversion", o.conversion},
               {"privacy", spec.privacy.description()},
               {"unconstrained", choice_json(res.unconstrained)},
               {"private", choice_json(res.constrained)},
               {"candidates", res.candidates}};
  if (!o.out.empty()) io::write_file_atomic(o.out, j.dump(2) + "\n");
  return o.json ? j.dump(2) + "\n" : report_text(o, spec, res);
}

}  // namespace gpdp::experiments
