// gpdp-lab ops: private logistic regression by One Posterior Sample, DP-SGLD, the hybrid, objective
// / output perturbation, or the non-private reference; test accuracy over repeats, as one declared
// request (ops_command.hpp).
#include "gpdp/ops/ops_command.hpp"

#include <fmt/format.h>

#include <limits>

#include "experiment_tasks.hpp"
#include "gpdp/error.hpp"
#include "release/option_values.hpp"

namespace gpdp::ops {

namespace {

using options::option;
using options::OptionScope;
using options::OptionType;

// An integer option that must fit an int (the HMC iteration counts, the repeats).
int int_option(const release::OptionValues& o, const std::string& key) {
  const long long v = o.integer(key);
  const std::string parameter = options::parameter_of_flag(key);
  require_parameter(
      v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max(), parameter,
      fmt::format("{} must lie in [{}, {}], got {}", parameter, std::numeric_limits<int>::min(),
                  std::numeric_limits<int>::max(), v));
  return static_cast<int>(v);
}

std::string report_text(const OpsRequest& r, const TabularSource& source,
                        const ExperimentSummary& s, const std::string& randomness) {
  std::string out = fmt::format("gpdp-lab ops: {} on {} ({})\n", to_string(r.method), source.name,
                                source.description);
  if (r.method == Method::nonprivate) {
    out += "  privacy: none (reference line)\n";
  } else {
    out += fmt::format("  privacy: epsilon = {}, delta = {}{}\n", r.epsilon, s.delta,
                       is_pure(r.method) ? "" : " (approximate DP)");
  }
  if (r.options.validation)
    out += "  evaluated on a validation split (20 % of the training rows), not the test rows\n";
  out += fmt::format("  accuracy: {:.4f} ± {:.4f} (mean ± standard error over {} repeats)\n",
                     s.accuracy_mean, s.accuracy_se, s.repeats);
  out += fmt::format("  mechanism: {}\n", s.guarantee_basis);
  if (r.method == Method::ops) {
    out += fmt::format(
        "  MCMC: {} chains per draw, worst split-R-hat {:.3f}, worst ESS {:.0f} (over coordinates "
        "and repeats)\n",
        r.options.ops.hmc.chains, s.max_rhat, s.min_ess);
  }
  if (r.method == Method::ops || r.method == Method::hybrid) {
    out +=
        "  note: epsilon is nominal for an EXACT posterior draw; a sampler at total-variation "
        "distance t from it is (epsilon, (1+e^epsilon)*t)-DP, and MCMC diagnostics do not certify "
        "t\n";
  }
  return out + fmt::format("  {}\n", randomness);
}

nlohmann::ordered_json report_json(const OpsRequest& r, const ExperimentSummary& s) {
  nlohmann::ordered_json j;
  j["method"] = to_string(r.method);
  j["epsilon"] = r.method == Method::nonprivate ? nlohmann::ordered_json(nullptr)
                                                : nlohmann::ordered_json(r.epsilon);
  j["delta"] = s.delta;
  j["accuracy_mean"] = s.accuracy_mean;
  j["accuracy_se"] = s.accuracy_se;
  j["repeats"] = s.repeats;
  return j;
}

}  // namespace

std::vector<options::OptionSpec> ops_options() {
  const OpsRequest d;
  const MethodOptions& m = d.options;
  const HmcOptions& h = m.ops.hmc;
  return {
      option("--data", OptionType::Text, nullptr,
             "abalone | adult | FILE.csv (a CSV with a two-valued label column, see --label)")
          .as_required(),
      option("--data-dir", OptionType::Text, nullptr,
             "Folder holding abalone.csv, adult_train.csv, adult_test.csv, each possibly .gz "
             "(default: $GPDP_DATA_DIR, the install's share/gpdp/data, the repository's data/)"),
      option("--label", OptionType::Text, d.source.label, "Label column of FILE.csv"),
      option("--method", OptionType::Text, nullptr,
             "ops | dpsgld | hybrid | objpert | outpert | nonprivate")
          .as_required(),
      option("--epsilon", OptionType::Real, nullptr,
             "Privacy parameter epsilon (> 0; not needed for nonprivate)"),
      option("--delta", OptionType::Real, m.dpsgld.delta,
             "delta of DP-SGLD / hybrid (the others are pure epsilon-DP)"),
      option("--repeats", OptionType::Integer, d.repeats,
             "Independent releases (Abalone/CSV: a new 80/20 split each)"),
      option("--seed", OptionType::Integer, nullptr,
             "Seed: reproducible experiment, NOT a private release"),
      option("--json", OptionType::Flag, false,
             "JSON on stdout: method, epsilon, delta, accuracy_mean, accuracy_se, repeats")
          .in_scope(OptionScope::Cli),
      option("--threads", OptionType::Integer, 0, "Worker threads for the repeats (0 = all cores)")
          .in_scope(OptionScope::Cli),
      option("--radius", OptionType::Real, m.radius,
             "R: parameter ball ||theta|| <= R (OPS, DP-SGLD, hybrid)"),
      option("--prior-sd", OptionType::Real, m.ops.prior_sd,
             "Prior N(0, sd^2 I) truncated to the ball"),
      option("--calibration", OptionType::Text, to_string(m.ops.calibration),
             "OPS epsilon of an untempered draw: 4B (Theorem 1, B = log(1+e^R)), 4LR, or 2Delta "
             "(tight sensitivity Delta = R; ours, not the paper's)"),
      option("--chains", OptionType::Integer, h.chains,
             "OPS: HMC chains (the first one's final state is released)"),
      option("--warmup", OptionType::Integer, h.warmup, "OPS: HMC warm-up iterations per chain"),
      option("--samples", OptionType::Integer, h.samples,
             "OPS: HMC iterations after warm-up per chain"),
      option("--leapfrog", OptionType::Integer, h.leapfrog_steps,
             "OPS: at most this many leapfrog steps per HMC iteration"),
      option("--integration-time", OptionType::Real, h.integration_time,
             "OPS: mean HMC integration time in whitened units (randomised +-40 %)"),
      option("--lambda", OptionType::Real, m.lambda,
             "Lambda of objpert/outpert (not privately tuned)"),
      option("--passes", OptionType::Real, m.dpsgld.passes,
             "DP-SGLD data passes T (0: max(ceil(T_min), 1))"),
      option("--tau", OptionType::Integer, m.dpsgld.sgld.tau,
             "DP-SGLD minibatch size (0: floor(sqrt(N)))"),
      option("--step-scale", OptionType::Real, m.dpsgld.step_scale,
             "DP-SGLD: eta_t = s/N / (1 + 10 t/K)"),
      option("--alpha-constant", OptionType::Real, m.dpsgld.constant,
             "DP-SGLD alpha constant (128 paper, 64 derived)"),
      option("--hybrid-split", OptionType::Real, m.hybrid_split,
             "hybrid: fraction of epsilon spent on the OPS start"),
      option("--validation", OptionType::Flag, m.validation,
             "Evaluate on a random 20 % of the TRAINING rows instead of the test rows (for "
             "choosing --radius, --step-scale, ... without touching the test set)"),
      option("--dpsgld-estimate", OptionType::Text, m.dpsgld_average ? "average" : "last",
             "DP-SGLD/hybrid prediction: average (iterate average of the 2nd half; "
             "post-processing) or last"),
  };
}

OpsRequest ops_request_from_json(const nlohmann::json& request) {
  const auto o = release::declared_values(ops_options(), request, "ops");
  OpsRequest r;
  r.method = parse_method(o.text("method"));
  r.epsilon = o.has("epsilon") ? o.number("epsilon") : 0.0;
  require_parameter(r.method == Method::nonprivate || r.epsilon > 0, "epsilon",
                    "epsilon E (> 0) is required");
  const std::string estimate = o.text("dpsgld-estimate");
  require_parameter(estimate == "average" || estimate == "last", "dpsgld_estimate",
                    "dpsgld_estimate must be average or last");
  MethodOptions& m = r.options;
  m.ops.calibration = parse_ops_calibration(o.text("calibration"));
  m.dpsgld_average = estimate == "average";
  r.source = {o.text("data"), o.has("data-dir") ? o.text("data-dir") : "", o.text("label")};
  r.repeats = int_option(o, "repeats");
  if (o.has("seed")) r.seed = o.unsigned_integer("seed");
  m.dpsgld.delta = o.number("delta");
  m.radius = o.number("radius");
  m.ops.prior_sd = o.number("prior-sd");
  m.dpsgld.sgld.prior_sd = m.ops.prior_sd;
  m.ops.hmc.chains = int_option(o, "chains");
  m.ops.hmc.warmup = int_option(o, "warmup");
  m.ops.hmc.samples = int_option(o, "samples");
  m.ops.hmc.leapfrog_steps = int_option(o, "leapfrog");
  m.ops.hmc.integration_time = o.number("integration-time");
  m.lambda = o.number("lambda");
  m.dpsgld.passes = o.number("passes");
  m.dpsgld.sgld.tau = o.integer("tau");
  m.dpsgld.step_scale = o.number("step-scale");
  m.dpsgld.constant = o.number("alpha-constant");
  m.hybrid_split = o.number("hybrid-split");
  m.validation = o.flag("validation");
  return r;
}

OpsOutcome run_ops(const OpsRequest& r, tasks::Executor& executor,
                   const std::function<void(long, long)>& progress) {
  const TabularSource& source = shared_source(r.source);
  const ExperimentSummary summary = run_experiment(r.source, r.method, r.epsilon, r.options,
                                                   r.repeats, r.seed, executor, progress);
  const std::string randomness = fmt::format("randomness: {}", summary.rng);
  return {report_json(r, summary), report_text(r, source, summary, randomness), randomness};
}

}  // namespace gpdp::ops
