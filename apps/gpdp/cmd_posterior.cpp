// gpdp posterior: posterior mean, variance (and excursion probability) on points or a grid.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/io/atomic_file.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/release/release_options.hpp"
#include "options.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

struct PosteriorFlags {
  PosteriorQueryOptions query;
  // A release's public response transform (release_options.hpp input_options): with any of them
  // the responses are prepared as `gpdp release` prepares them, clipped to ±M_Y.
  double M_Y = 1.0;
  std::string transform = "none";
  double center = 0.0;
  double scale = 1.0;
  bool sign = false;
  std::optional<double> threshold;
  std::string out;
  bool json = false;
};

// The input description of the transform flags given (none given: nullopt, the responses as read).
std::optional<release::InputSpec> response_transform(const PosteriorFlags& f, const CLI::App* app) {
  const auto given = [app](const char* flag) { return app->count(flag) > 0; };
  if (!given("--transform") && !given("--center") && !given("--scale") && !given("--M-Y") &&
      !given("--sign"))
    return std::nullopt;
  release::InputSpec spec;
  spec.M_Y = f.M_Y;
  spec.transform = release::parse_response_transform(f.transform);
  if (given("--center")) spec.center = f.center;
  if (given("--scale")) spec.scale = f.scale;
  spec.sign = f.sign;
  require(spec.M_Y > 0 && std::isfinite(spec.M_Y), "--M-Y must be positive");
  require(!spec.scale || *spec.scale > 0, "--scale must be positive");
  return spec;
}

void run(const PosteriorFlags& f, const CLI::App* app) {
  require(!f.out.empty(), "--out FILE is required");
  require(!f.threshold || std::isfinite(*f.threshold), "--threshold must be a finite number");
  const std::optional<release::InputSpec> spec = response_transform(f, app);
  // y ← clip((transform(y) − C)/B, ±M_Y) as a release prepares it; t in response units → model
  // units.
  const PosteriorQuery pq = load_posterior_query(f.query, [&](const Eigen::VectorXd& y) {
    if (!spec) return Eigen::VectorXd(y);
    return Eigen::VectorXd(y.unaryExpr([&](double v) {
      require(spec->transform != release::ResponseTransform::Log || v > 0,
              fmt::format("--transform log needs positive responses, got {}", v));
      return std::clamp(release::transformed_response(v, *spec), -spec->M_Y, spec->M_Y);
    }));
  });  // checks r, σ > 0 and η ≥ 0
  std::optional<double> level = f.threshold;
  if (spec && level) *level = (*level - spec->center.value_or(0.0)) / spec->scale.value_or(1.0);
  const double eta = f.query.hyper.eta;
  const Posterior& posterior = pq.posterior;
  const QueryPoints& q = pq.query;
  const Eigen::VectorXd mean = posterior.mean(q.points);
  // The released path is f_D + g: its variance adds η² k(x, x) = η².
  const Eigen::VectorXd var = posterior.variance(q.points).array() + eta * eta;
  Eigen::MatrixXd columns(mean.size(), f.threshold ? 3 : 2);
  columns.col(0) = mean;
  columns.col(1) = var;
  if (level) {
    // p(x) = P(f_D(x) + g(x) ≥ t) = Φ((μ_D(x) − t) / sqrt(σ² k_D(x,x) + η²)).
    for (Eigen::Index i = 0; i < mean.size(); ++i) {
      columns(i, 2) = var[i] <= 0 ? (mean[i] >= *level ? 1.0 : 0.0)
                                  : 0.5 * std::erfc(-(mean[i] - *level) / std::sqrt(2.0 * var[i]));
    }
  }
  std::vector<std::string> names = {"mean", "variance"};
  if (f.threshold) names.emplace_back("p_exceed");
  io::write_file_atomic(f.out, points_csv(q, columns, names));
  const double deff = posterior.effective_dimension();
  if (f.json) {
    nlohmann::json summary = pq.summary("posterior", eta);
    summary["effective_dimension"] = deff;
    summary["out"] = f.out;
    if (f.threshold) summary["threshold"] = *f.threshold;
    if (spec) summary["input"] = release::to_json(*spec);
    fmt::print("{}\n", summary.dump(2));
  } else {
    fmt::print("wrote posterior mean and variance at {} point(s) to {} (d_eff = {:.4g})\n",
               q.points.rows(), f.out, deff);
  }
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "posterior",
      "Posterior mean μ_D(x) and variance σ² k_D(x,x) (+ η² with --eta) of the released path on\n"
      "query points or a grid; with --threshold t also the excursion probability\n"
      "p_exceed(x) = Φ((μ_D(x) − t)/sd(x)). Output CSV: x1..xd, mean, variance[, p_exceed].\n"
      "With --transform/--center/--scale/--M-Y/--sign the responses are prepared as gpdp release\n"
      "prepares them (y ← clip((transform(y) − C)/B, ±M_Y)): the non-private reference of a\n"
      "release; mean and variance are then in model units and t in response units.\n"
      "Nothing random is drawn and nothing is released: these quantities depend on the private\n"
      "data directly and are NOT differentially private.");
  auto f = std::make_shared<PosteriorFlags>();
  add_posterior_query_options(sub, f->query);
  const auto input = release::input_options();
  add_spec_option(sub, input, "--transform", f->transform);
  add_spec_option(sub, input, "--center", f->center);
  add_spec_option(sub, input, "--scale", f->scale);
  add_spec_option(sub, input, "--M-Y", f->M_Y);
  sub->add_flag("--sign", f->sign, find_spec(input, "--sign").help);
  sub->add_option("--threshold", f->threshold,
                  "Excursion threshold t (response units, after --transform): adds column "
                  "p_exceed");
  sub->add_option("--out", f->out, "Output CSV (written whole or not at all)")->required();
  sub->add_flag("--json", f->json, "Print a JSON summary on stdout");
  sub->callback([f, sub] { run(*f, sub); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
