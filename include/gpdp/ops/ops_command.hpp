#pragma once
// `gpdp-lab ops` as one declared request: private logistic regression by One Posterior Sample,
// DP-SGLD, the hybrid, objective / output perturbation or the non-private reference, and the test
// accuracy over repeats (docs/ops.md). ops_options() is the command's options table
// (lab::command_options("ops")), ops_request_from_json the one reader of its request (it holds
// only the options given; errors name parameters: "method", "epsilon", "calibration", ...),
// run_ops the run and its report (text, and JSON for --json).
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/ops/experiment.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::ops {

// --data, --data-dir, --label, --method, --epsilon, --delta, --repeats, --seed, the mechanisms'
// settings (--radius ... --dpsgld-estimate), and the CLI's --json and --threads.
std::vector<options::OptionSpec> ops_options();

struct OpsRequest {
  SourceRef source;                   // data (required), data_dir, label
  Method method = Method::ops;        // required
  double epsilon = 0.0;               // > 0 unless nonprivate (0 when not given)
  int repeats = 10;                   // independent releases
  std::optional<std::uint64_t> seed;  // none: the secure generator; a seed: NOT private
  MethodOptions options;              // δ is options.dpsgld.delta
};

// Checks, in this order: method, epsilon (> 0 unless nonprivate), dpsgld_estimate, calibration;
// the ranges of the mechanisms' settings are checked where they are used (ParameterError naming
// the parameter), the data when it is read.
OpsRequest ops_request_from_json(const nlohmann::json& request);

struct OpsOutcome {
  nlohmann::ordered_json report;  // method, epsilon (null for nonprivate), delta, accuracy_mean,
                                  // accuracy_se, repeats: the CLI's --json
  std::string text;               // the report as the CLI prints it without --json
  std::string randomness;         // "randomness: <the generator>" (the text's last line)
};

// Loads the data (once per process, shared_source), runs the repeats as "ops.repeat" tasks on
// `executor` (progress(done, K) as it reports) and reports the accuracy over them.
OpsOutcome run_ops(const OpsRequest& request, tasks::Executor& executor,
                   const std::function<void(long, long)>& progress = {});

}  // namespace gpdp::ops
