#pragma once
// Accuracy-vs-ε experiments for private logistic regression (docs/ops-derivations.md §5): one
// method, one ε, K repeats (each: a data split when the source has no test table, a model fit, a
// release, the test accuracy of sign(θᵀx)), each repeat an "ops.repeat" task
// (ops/experiment_tasks.hpp) run by an executor (threads in the CLI, Dask workers from Python).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/ops/dpsgld.hpp"
#include "gpdp/ops/one_posterior_sample.hpp"
#include "gpdp/ops/tabular.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::ops {

enum class Method { ops, dpsgld, hybrid, objpert, outpert, nonprivate };
Method parse_method(const std::string& name);  // ParameterError naming "method"
std::string to_string(Method m);
bool is_pure(Method m);  // ε-DP (δ = 0): ops, objpert, outpert

struct MethodOptions {
  double radius = 2.0;   // R of the parameter ball (OPS, DP-SGLD, hybrid)
  double lambda = 1e-3;  // Λ of ObjPert / OutPert
  double nonprivate_lambda = 1e-6;
  double hybrid_split = 0.5;   // fraction of ε spent on the OPS initialisation
  OpsOptions ops;              // calibration, prior_sd, HMC
  DpSgldOptions dpsgld;        // δ, passes, constant, steps
  bool dpsgld_average = true;  // predict with the iterate average (post-processing) or last iterate
  bool validation =
      false;  // evaluate on 20 % of the training rows (validation_split), not the test rows
};

struct RepeatOutcome {
  double accuracy = 0.0;
  Guarantee guarantee;
  std::optional<ChainDiagnostics> diagnostics;  // OPS only
};

// Test accuracy of the classifier sign(θᵀx) (ties count as +1).
double accuracy(const Eigen::VectorXd& theta, const Eigen::MatrixXd& x, const Eigen::VectorXd& y);

// One fit + release + evaluation on prepared data.
RepeatOutcome run_method(const ClassificationData& data, Method method, double epsilon,
                         const MethodOptions& options, Rng& rng);

struct ExperimentSummary {
  Method method{};
  double epsilon = 0.0;
  double delta = 0.0;
  int repeats = 0;
  double accuracy_mean = 0.0;
  double accuracy_se = 0.0;  // sample sd / √K (0 for K = 1)
  std::vector<double> accuracies;
  std::string guarantee_basis;  // from repeat 1
  double max_rhat = 0.0;        // OPS: worst over repeats
  double min_ess = 0.0;         // OPS: worst over repeats
  std::string rng;              // description of the generator
};

// A data set by name, as ops::load_source finds it: abalone, adult, or a CSV file and its label
// column (data_dir: empty for the default lookup, io/data_dir.hpp).
struct SourceRef {
  std::string data;
  std::string data_dir;
  std::string label = "y";
};

// Repeat k: SeededRng(seed).split(k) (data split and mechanism), or a SecureRng when seed is empty.
RepeatOutcome run_repeat(const TabularSource& source, Method method, double epsilon,
                         const MethodOptions& options, std::optional<std::uint64_t> seed, long k);

// The K "ops.repeat" tasks of one (method, ε); InputError for K < 1 or ε ≤ 0 (private methods).
std::vector<tasks::Task> experiment_tasks(const SourceRef& source, Method method, double epsilon,
                                          const MethodOptions& options, int repeats,
                                          std::optional<std::uint64_t> seed);
// The summary of the K outcomes, in repeat order.
ExperimentSummary summarise_experiment(Method method, double epsilon, const MethodOptions& options,
                                       std::optional<std::uint64_t> seed,
                                       const std::vector<RepeatOutcome>& outcomes);

// experiment_tasks -> executor -> summarise_experiment. progress(done, K) as the executor reports.
ExperimentSummary run_experiment(const SourceRef& source, Method method, double epsilon,
                                 const MethodOptions& options, int repeats,
                                 std::optional<std::uint64_t> seed, tasks::Executor& executor,
                                 const std::function<void(long, long)>& progress = {});

}  // namespace gpdp::ops
