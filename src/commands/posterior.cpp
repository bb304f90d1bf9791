// gpdp posterior: posterior mean, variance (and excursion probability) on points or a grid, as one
// declared request (posterior.hpp).
#include "gpdp/commands/posterior.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include "evaluate_posterior.hpp"
#include "gpdp/error.hpp"
#include "gpdp/release/release_options.hpp"
#include "io/atomic_file.hpp"
#include "options/model_options.hpp"

namespace gpdp::commands {

namespace {
using nlohmann::json;
using options::option;
using options::OptionType;

// The response transform's options (request keys), in the order --help lists them; gpdp release
// declares them (release::input_options).
constexpr const char* kTransformKeys[] = {"transform", "center", "scale", "M-Y", "sign"};

const options::OptionSpec& input_option(const std::vector<options::OptionSpec>& specs,
                                        const std::string& key) {
  for (const auto& spec : specs)
    if (options::key_of(spec) == key) return spec;
  throw std::logic_error("no input option " + key);
}
}  // namespace

std::vector<options::OptionSpec> posterior_options() {
  auto specs = posterior_query_options();
  const auto input = release::input_options();
  for (const char* key : kTransformKeys) specs.push_back(input_option(input, key));
  specs.push_back(option("--threshold", OptionType::Real, nullptr,
                         "Excursion threshold t (response units, after --transform): adds column "
                         "p_exceed"));
  return options::concat(specs, posterior_output_options());
}

namespace {

// The input description of the transform options given (none given: nullopt, the responses as
// read).
std::optional<release::InputSpec> response_transform(const json& request) {
  const auto given = [&](const char* key) { return request.contains(key); };
  if (std::none_of(std::begin(kTransformKeys), std::end(kTransformKeys), given))
    return std::nullopt;
  release::InputSpec spec;
  spec.M_Y = options::real_or(request, "M-Y", spec.M_Y);
  spec.transform = release::parse_response_transform(request.value("transform", "none"));
  if (given("center")) spec.center = options::real_or(request, "center", 0.0);
  if (given("scale")) spec.scale = options::real_or(request, "scale", 1.0);
  spec.sign = request.value("sign", false);
  require_parameter(spec.M_Y > 0 && std::isfinite(spec.M_Y), "M_Y", "M_Y must be positive");
  require_parameter(!spec.scale || *spec.scale > 0, "scale", "scale must be positive");
  return spec;
}

}  // namespace

PosteriorCommand posterior_request_from_json(const json& request) {
  options::check_request_keys(posterior_options(), request, "posterior");
  PosteriorCommand c;
  c.out = request.value("out", c.out);
  require_parameter(!c.out.empty(), "out", "out FILE is required");
  if (request.contains("threshold")) {
    c.threshold = options::real_from_json(request.at("threshold"));
    require_parameter(std::isfinite(*c.threshold), "threshold",
                      "threshold must be a finite number");
  }
  c.input = response_transform(request);
  c.query = read_posterior_query(request);
  return c;
}

PosteriorOutcome run_posterior_command(const PosteriorCommand& c) {
  const std::optional<release::InputSpec>& spec = c.input;
  // y ← clip((transform(y) − C)/B, ±M_Y) as a release prepares it; t in response units → model
  // units.
  const PosteriorQuery pq = load_posterior_query(c.query, [&](const Eigen::VectorXd& y) {
    if (!spec) return Eigen::VectorXd(y);
    return Eigen::VectorXd(y.unaryExpr([&](double v) {
      require_parameter(spec->transform != release::ResponseTransform::Log || v > 0, "transform",
                        fmt::format("transform log needs positive responses, got {}", v));
      return std::clamp(release::transformed_response(v, *spec), -spec->M_Y, spec->M_Y);
    }));
  });
  std::optional<double> level = c.threshold;
  if (spec && level) *level = (*level - spec->center.value_or(0.0)) / spec->scale.value_or(1.0);
  const double eta = c.query.eta;
  const Posterior& posterior = pq.posterior;
  const QueryPoints& q = pq.query;
  const Eigen::VectorXd mean = posterior.mean(q.points);
  // The released path is f_D + g: its variance adds η² k(x, x) = η².
  const Eigen::VectorXd var = posterior.variance(q.points).array() + eta * eta;
  Eigen::MatrixXd columns(mean.size(), c.threshold ? 3 : 2);
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
  if (c.threshold) names.emplace_back("p_exceed");
  io::write_file_atomic(c.out, points_csv(q, columns, names));
  const double deff = posterior.effective_dimension();
  json report = pq.summary("posterior", eta);
  report["effective_dimension"] = deff;
  report["out"] = c.out;
  if (c.threshold) report["threshold"] = *c.threshold;
  if (spec) report["input"] = release::to_json(*spec);
  const std::string text =
      fmt::format("wrote posterior mean and variance at {} point(s) to {} (d_eff = {:.4g})\n",
                  q.points.rows(), c.out, deff);
  return {report, text};
}

}  // namespace gpdp::commands
