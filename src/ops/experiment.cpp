#include "gpdp/ops/experiment.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

#include "experiment_tasks.hpp"
#include "gpdp/error.hpp"
#include "gpdp/ops/erm.hpp"
#include "gpdp/ops/logistic.hpp"

namespace gpdp::ops {

Method parse_method(const std::string& name) {
  if (name == "ops") return Method::ops;
  if (name == "dpsgld") return Method::dpsgld;
  if (name == "hybrid") return Method::hybrid;
  if (name == "objpert") return Method::objpert;
  if (name == "outpert") return Method::outpert;
  if (name == "nonprivate") return Method::nonprivate;
  throw ParameterError(
      {"method"},
      fmt::format(
          "method must be one of ops, dpsgld, hybrid, objpert, outpert, nonprivate; got '{}'",
          name));
}

std::string to_string(Method m) {
  switch (m) {
    case Method::ops:
      return "ops";
    case Method::dpsgld:
      return "dpsgld";
    case Method::hybrid:
      return "hybrid";
    case Method::objpert:
      return "objpert";
    case Method::outpert:
      return "outpert";
    case Method::nonprivate:
      return "nonprivate";
  }
  return "?";
}

bool is_pure(Method m) { return m == Method::ops || m == Method::objpert || m == Method::outpert; }

double accuracy(const Eigen::VectorXd& theta, const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
  const Eigen::VectorXd s = x * theta;
  Eigen::Index correct = 0;
  for (Eigen::Index i = 0; i < s.size(); ++i) correct += ((s(i) >= 0 ? 1.0 : -1.0) == y(i)) ? 1 : 0;
  return static_cast<double>(correct) / static_cast<double>(s.size());
}

RepeatOutcome run_method(const ClassificationData& data, Method method, double epsilon,
                         const MethodOptions& o, Rng& rng) {
  const LogisticModel model(data.x_train, data.y_train, o.radius);
  RepeatOutcome out;
  Eigen::VectorXd theta;
  switch (method) {
    case Method::ops: {
      const OpsRelease r = one_posterior_sample(model, epsilon, o.ops, rng);
      theta = r.theta;
      out.guarantee = r.guarantee;
      out.diagnostics = r.diagnostics;
      break;
    }
    case Method::dpsgld: {
      const DpSgldRelease r =
          dp_sgld(model, epsilon, Eigen::VectorXd::Zero(model.dim()), o.dpsgld, rng);
      theta = o.dpsgld_average ? r.run.average : r.run.last;
      out.guarantee = r.guarantee;
      break;
    }
    case Method::hybrid: {
      const DpSgldRelease r =
          hybrid_ops_dpsgld(model, epsilon, o.hybrid_split, o.ops, o.dpsgld, rng);
      theta = o.dpsgld_average ? r.run.average : r.run.last;
      out.guarantee = r.guarantee;
      break;
    }
    case Method::objpert: {
      const PrivateEstimate e = objective_perturbation(model, epsilon, o.lambda, rng);
      theta = e.theta;
      out.guarantee = e.guarantee;
      break;
    }
    case Method::outpert: {
      const PrivateEstimate e = output_perturbation(model, epsilon, o.lambda, rng);
      theta = e.theta;
      out.guarantee = e.guarantee;
      break;
    }
    case Method::nonprivate:
      theta = regularised_logistic_erm(model, o.nonprivate_lambda);
      out.guarantee = {std::numeric_limits<double>::infinity(), 0.0,
                       fmt::format("non-private L2-regularised logistic regression, Lambda={}",
                                   o.nonprivate_lambda)};
      break;
  }
  out.accuracy = accuracy(theta, data.x_test, data.y_test);
  return out;
}

RepeatOutcome run_repeat(const TabularSource& source, Method method, double epsilon,
                         const MethodOptions& options, std::optional<std::uint64_t> seed, long k) {
  std::unique_ptr<Rng> rng;
  if (seed) {
    rng = std::make_unique<SeededRng>(SeededRng(*seed).split(static_cast<std::uint64_t>(k)));
  } else {
    rng = std::make_unique<SecureRng>();
  }
  ClassificationData data = source.prepare(*rng);
  if (options.validation) data = validation_split(data, 0.2, *rng);
  return run_method(data, method, epsilon, options, *rng);
}

std::vector<tasks::Task> experiment_tasks(const SourceRef& source, Method method, double epsilon,
                                          const MethodOptions& options, int repeats,
                                          std::optional<std::uint64_t> seed) {
  require_parameter(repeats >= 1, "repeats", fmt::format("repeats must be >= 1, got {}", repeats));
  require_parameter(method == Method::nonprivate || (std::isfinite(epsilon) && epsilon > 0),
                    "epsilon", fmt::format("epsilon must be > 0, got {}", epsilon));
  std::vector<tasks::Task> list;
  for (long k = 0; k < repeats; ++k) {
    nlohmann::json params{
        {"source", {{"data", source.data}, {"data_dir", source.data_dir}, {"label", source.label}}},
        {"method", to_string(method)},
        {"epsilon", epsilon},
        {"options", options},
        {"repeat", k}};
    if (seed) params["seed"] = *seed;
    list.push_back({"ops.repeat", std::move(params)});
  }
  return list;
}

ExperimentSummary summarise_experiment(Method method, double epsilon, const MethodOptions& options,
                                       std::optional<std::uint64_t> seed,
                                       const std::vector<RepeatOutcome>& outcomes) {
  ExperimentSummary s;
  s.method = method;
  s.epsilon = method == Method::nonprivate ? std::numeric_limits<double>::infinity() : epsilon;
  s.delta = (method == Method::dpsgld || method == Method::hybrid) ? options.dpsgld.delta : 0.0;
  s.repeats = static_cast<int>(outcomes.size());
  s.rng = seed ? SeededRng(*seed).description() + " (split per repeat)" : SecureRng().description();
  s.min_ess = std::numeric_limits<double>::infinity();
  for (const auto& o : outcomes) {
    s.accuracies.push_back(o.accuracy);
    if (o.diagnostics) {
      s.max_rhat = std::max(s.max_rhat, o.diagnostics->max_rhat);
      s.min_ess = std::min(s.min_ess, o.diagnostics->min_ess);
    }
  }
  if (!std::isfinite(s.min_ess)) s.min_ess = 0.0;
  s.guarantee_basis = outcomes.front().guarantee.basis;
  const double k = static_cast<double>(s.repeats);
  s.accuracy_mean = std::accumulate(s.accuracies.begin(), s.accuracies.end(), 0.0) / k;
  if (s.repeats > 1) {
    double ss = 0.0;
    for (const double a : s.accuracies) ss += (a - s.accuracy_mean) * (a - s.accuracy_mean);
    s.accuracy_se = std::sqrt(ss / (k - 1.0)) / std::sqrt(k);
  }
  return s;
}

ExperimentSummary run_experiment(const SourceRef& source, Method method, double epsilon,
                                 const MethodOptions& options, int repeats,
                                 std::optional<std::uint64_t> seed, tasks::Executor& executor,
                                 const std::function<void(long, long)>& progress) {
  const auto results =
      executor.map(experiment_tasks(source, method, epsilon, options, repeats, seed), progress);
  std::vector<RepeatOutcome> outcomes;
  for (const auto& r : results) outcomes.push_back(r.get<RepeatOutcome>());
  return summarise_experiment(method, epsilon, options, seed, outcomes);
}

}  // namespace gpdp::ops
