// gpdp attack: the LiRA-style membership-inference attack of docs/mathematics.md §4 (paper §4, App.
// C) against L released posterior sample paths, next to the (ε, δ) bound of the same release.
#include <fmt/format.h>

#include <functional>

#include "command.hpp"
#include "gpdp/attack/attack_run.hpp"
#include "gpdp/attack/sweep.hpp"
#include "gpdp/tasks/executor.hpp"
#include "options.hpp"

namespace gpdp::cli {

namespace {

struct AttackArgs {
  KernelOptions kernel;
  HyperOptions hyper;
  attack::AttackRequest request;
  int threads = 0;
  bool quiet = false;
};

void run(AttackArgs& a) {
  a.request.kernel = a.kernel.kernel;
  a.request.ell = a.kernel.ell;
  a.request.r = a.hyper.r;
  a.request.sigma = a.hyper.sigma;
  a.request.eta = a.hyper.eta;
  tasks::ThreadExecutor executor(a.threads);
  const auto progress =
      a.quiet ? std::function<void(long, long)>{} : attack::stderr_progress("attack");
  fmt::print("{}", attack::run_attack(a.request, executor, progress));
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "attack",
      "LiRA-style membership-inference attack (paper §4, App. C) against L released posterior\n"
      "sample paths at x0 = 1/2: shadow datasets under H_in (z0 = (1/2, 1) is in D) and H_out,\n"
      "density models fitted by maximum likelihood, evaluation on independent datasets. Reports\n"
      "AUC, TPR at FPR = 0.1/0.01/0.001, excess TPR and an empirical lower bound on ε (95 %,\n"
      "Clopper–Pearson), next to the accountant's (ε, δ) bound for the same release.");
  auto args = std::make_shared<AttackArgs>();
  add_kernel_options(sub, args->kernel);
  add_hyper_options(sub, args->hyper);
  sub->add_option("--draws,-L", args->request.draws, "Number of released sample paths L ≥ 1")
      ->capture_default_str();
  sub->add_option("--n", args->request.n, "Dataset size |D|")->capture_default_str();
  sub->add_option("--shadow", args->request.shadow, "Shadow datasets per hypothesis (fit)")
      ->capture_default_str();
  sub->add_option("--eval", args->request.eval, "Evaluation datasets per hypothesis")
      ->capture_default_str();
  sub->add_option("--seeds", args->request.seeds, "Independent repetitions (mean ± sd)")
      ->capture_default_str();
  sub->add_option("--seed", args->request.seed,
                  "First seed (seed i = seed + i; experiments are seeded)")
      ->capture_default_str();
  sub->add_option("--noise", args->request.noise, "Response noise bound M_ξ ∈ [0, 1)")
      ->capture_default_str();
  sub->add_option("--delta", args->request.delta, "δ of the (ε, δ) bound and of the empirical ε")
      ->capture_default_str();
  sub->add_option("--conversion", args->request.conversion, "RDP→(ε,δ) conversion: mironov or cks")
      ->capture_default_str();
  sub->add_option("--threads", args->threads, "Worker threads (0 = all cores)");
  sub->add_flag("--benchmark", args->request.benchmark,
                "Also run the non-private benchmark that sees μ_D(x0) and k_D(x0,x0) exactly");
  sub->add_option("--roc", args->request.roc_path,
                  "Write the ROC curves (linear and log-log) with the bound (.png/.svg)");
  sub->add_option("--roc-csv", args->request.roc_csv_path,
                  "Write the ROC points of every seed as CSV");
  sub->add_flag("--json", args->request.json,
                "Print the results as JSON (means over seeds, *_sd companions)");
  sub->add_flag("--quiet", args->quiet, "No progress on stderr");
  sub->footer(
      "Example: gpdp attack --r 0.1 --sigma 5 --draws 3 --shadow 10000 --eval 10000 --seeds 10");
  sub->callback([args] { run(*args); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
