// gpdp-lab ops: private logistic regression by One Posterior Sample, DP-SGLD, the hybrid, objective
// / output perturbation, or the non-private reference; test accuracy over repeats.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/ops/experiment.hpp"
#include "gpdp/ops/experiment_tasks.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::cli {

namespace {

struct OpsCommandOptions {
  std::string data;
  std::string data_dir;
  std::string label = "y";
  std::string method;
  double epsilon = 0.0;
  double delta = 1e-5;
  int repeats = 10;
  std::optional<std::uint64_t> seed;
  bool json = false;
  int threads = 0;
  std::string calibration = "4B";
  std::string dpsgld_estimate = "average";
  ops::MethodOptions m;
};

void run(OpsCommandOptions& o) {
  const ops::Method method = ops::parse_method(o.method);
  require(method == ops::Method::nonprivate || o.epsilon > 0, "--epsilon E (> 0) is required");
  require(o.dpsgld_estimate == "average" || o.dpsgld_estimate == "last",
          "--dpsgld-estimate must be average or last");
  o.m.ops.calibration = ops::parse_ops_calibration(o.calibration);
  o.m.dpsgld.delta = o.delta;
  o.m.dpsgld.sgld.prior_sd = o.m.ops.prior_sd;
  o.m.dpsgld_average = o.dpsgld_estimate == "average";
  const ops::SourceRef ref{o.data, o.data_dir, o.label};
  const ops::TabularSource& source = ops::shared_source(ref);
  tasks::ThreadExecutor executor(o.threads, lab::registry());
  const auto summary = ops::run_experiment(
      ref, method, o.epsilon, o.m, o.repeats, o.seed, executor, [](long done, long total) {
        std::fprintf(stderr, "\rgpdp-lab ops: repeat %ld/%ld", done, total);
        if (done == total) std::fprintf(stderr, "\n");
      });
  const std::string rng_line = fmt::format("randomness: {}", summary.rng);
  if (o.json) {
    nlohmann::ordered_json j;
    j["method"] = ops::to_string(method);
    j["epsilon"] = method == ops::Method::nonprivate ? nlohmann::ordered_json(nullptr)
                                                     : nlohmann::ordered_json(o.epsilon);
    j["delta"] = summary.delta;
    j["accuracy_mean"] = summary.accuracy_mean;
    j["accuracy_se"] = summary.accuracy_se;
    j["repeats"] = summary.repeats;
    fmt::print("{}\n", j.dump(2));
    std::fprintf(stderr, "gpdp-lab ops: %s\n", rng_line.c_str());
    return;
  }
  fmt::print("gpdp-lab ops: {} on {} ({})\n", ops::to_string(method), source.name,
             source.description);
  if (method == ops::Method::nonprivate) {
    fmt::print("  privacy: none (reference line)\n");
  } else {
    fmt::print("  privacy: epsilon = {}, delta = {}{}\n", o.epsilon, summary.delta,
               ops::is_pure(method) ? "" : " (approximate DP)");
  }
  if (o.m.validation)
    fmt::print(
        "  evaluated on a validation split (20 % of the training rows), not the test rows\n");
  fmt::print("  accuracy: {:.4f} ± {:.4f} (mean ± standard error over {} repeats)\n",
             summary.accuracy_mean, summary.accuracy_se, summary.repeats);
  fmt::print("  mechanism: {}\n", summary.guarantee_basis);
  if (method == ops::Method::ops) {
    fmt::print(
        "  MCMC: {} chains per draw, worst split-R-hat {:.3f}, worst ESS {:.0f} (over coordinates "
        "and repeats)\n",
        o.m.ops.hmc.chains, summary.max_rhat, summary.min_ess);
  }
  if (method == ops::Method::ops || method == ops::Method::hybrid) {
    fmt::print(
        "  note: epsilon is nominal for an EXACT posterior draw; a sampler at total-variation "
        "distance t from it is (epsilon, (1+e^epsilon)*t)-DP, and MCMC diagnostics do not certify "
        "t\n");
  }
  fmt::print("  {}\n", rng_line);
}

void setup(CLI::App& app) {
  auto o = std::make_shared<OpsCommandOptions>();
  auto* sub = app.add_subcommand(
      "ops",
      "Private logistic regression (Wang, Fienberg & Smola 2015): release parameters by One "
      "Posterior\n"
      "Sample (ops), DP-SGLD (dpsgld), OPS-initialised DP-SGLD (hybrid), objective or output\n"
      "perturbation (objpert, outpert; Chaudhuri et al. 2011) or not privately (nonprivate), and\n"
      "report the test accuracy over --repeats releases. Features are one-hot/standardised, rows\n"
      "scaled to ||x|| <= 1, labels +-1 (docs/ops.md). Without --seed every release uses the "
      "secure\n"
      "RNG; with --seed the run is reproducible and NOT private.");
  sub->add_option("--data", o->data,
                  "abalone | adult | FILE.csv (a CSV with a two-valued label column, see --label)")
      ->required();
  sub->add_option(
      "--data-dir", o->data_dir,
      "Folder holding abalone.csv, adult_train.csv, adult_test.csv, each possibly .gz (default: "
      "$GPDP_DATA_DIR, the install's share/gpdp/data, the repository's data/)");
  sub->add_option("--label", o->label, "Label column of FILE.csv")->capture_default_str();
  sub->add_option("--method", o->method, "ops | dpsgld | hybrid | objpert | outpert | nonprivate")
      ->required();
  sub->add_option("--epsilon", o->epsilon,
                  "Privacy parameter epsilon (> 0; not needed for nonprivate)");
  sub->add_option("--delta", o->delta, "delta of DP-SGLD / hybrid (the others are pure epsilon-DP)")
      ->capture_default_str();
  sub->add_option("--repeats", o->repeats,
                  "Independent releases (Abalone/CSV: a new 80/20 split each)")
      ->capture_default_str();
  sub->add_option("--seed", o->seed, "Seed: reproducible experiment, NOT a private release");
  sub->add_flag("--json", o->json,
                "JSON on stdout: method, epsilon, delta, accuracy_mean, accuracy_se, repeats");
  sub->add_option("--threads", o->threads, "Worker threads for the repeats (0 = all cores)");
  sub->add_option("--radius", o->m.radius,
                  "R: parameter ball ||theta|| <= R (OPS, DP-SGLD, hybrid)")
      ->capture_default_str();
  sub->add_option("--prior-sd", o->m.ops.prior_sd, "Prior N(0, sd^2 I) truncated to the ball")
      ->capture_default_str();
  sub->add_option(
         "--calibration", o->calibration,
         "OPS epsilon of an untempered draw: 4B (Theorem 1, B = log(1+e^R)), 4LR, or 2Delta "
         "(tight sensitivity Delta = R; ours, not the paper's)")
      ->capture_default_str();
  sub->add_option("--chains", o->m.ops.hmc.chains,
                  "OPS: HMC chains (the first one's final state is released)")
      ->capture_default_str();
  sub->add_option("--warmup", o->m.ops.hmc.warmup, "OPS: HMC warm-up iterations per chain")
      ->capture_default_str();
  sub->add_option("--samples", o->m.ops.hmc.samples, "OPS: HMC iterations after warm-up per chain")
      ->capture_default_str();
  sub->add_option("--leapfrog", o->m.ops.hmc.leapfrog_steps,
                  "OPS: at most this many leapfrog steps per HMC iteration")
      ->capture_default_str();
  sub->add_option("--integration-time", o->m.ops.hmc.integration_time,
                  "OPS: mean HMC integration time in whitened units (randomised +-40 %)")
      ->capture_default_str();
  sub->add_option("--lambda", o->m.lambda, "Lambda of objpert/outpert (not privately tuned)")
      ->capture_default_str();
  sub->add_option("--passes", o->m.dpsgld.passes, "DP-SGLD data passes T (0: max(ceil(T_min), 1))")
      ->capture_default_str();
  sub->add_option("--tau", o->m.dpsgld.sgld.tau, "DP-SGLD minibatch size (0: floor(sqrt(N)))")
      ->capture_default_str();
  sub->add_option("--step-scale", o->m.dpsgld.step_scale, "DP-SGLD: eta_t = s/N / (1 + 10 t/K)")
      ->capture_default_str();
  sub->add_option("--alpha-constant", o->m.dpsgld.constant,
                  "DP-SGLD alpha constant (128 paper, 64 derived)")
      ->capture_default_str();
  sub->add_option("--hybrid-split", o->m.hybrid_split,
                  "hybrid: fraction of epsilon spent on the OPS start")
      ->capture_default_str();
  sub->add_flag(
      "--validation", o->m.validation,
      "Evaluate on a random 20 % of the TRAINING rows instead of the test rows (for choosing "
      "--radius, --step-scale, ... without touching the test set)");
  sub->add_option("--dpsgld-estimate", o->dpsgld_estimate,
                  "DP-SGLD/hybrid prediction: average (iterate average of the 2nd half; "
                  "post-processing) or last")
      ->capture_default_str();
  sub->callback([o] { run(*o); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
