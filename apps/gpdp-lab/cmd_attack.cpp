// gpdp-lab attack: the LiRA-style membership-inference attack of docs/mathematics.md §4 (paper §4,
// App. C) against L released posterior sample paths, next to the (ε, δ) bound of the same release.
// Its options are the library's (attack/attack_options.hpp), shared with python -m
// gpdp.distributed attack.
#include <fmt/format.h>

#include <functional>

#include "command.hpp"
#include "gpdp/attack/attack_run.hpp"
#include "gpdp/attack/sweep.hpp"
#include "gpdp/lab/command_options.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/tasks/executor.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed();
  if (SpecOptions::print_request(parsed)) return;
  const auto request = attack::attack_request_from_json(parsed.request);
  tasks::ThreadExecutor executor(parsed.front_end.at("threads").get<int>(), lab::registry());
  const auto progress = parsed.front_end.at("quiet").get<bool>()
                            ? std::function<void(long, long)>{}
                            : attack::stderr_progress("attack");
  fmt::print("{}", attack::run_attack(request, executor, progress));
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "attack",
      "LiRA-style membership-inference attack (paper §4, App. C) against L released posterior\n"
      "sample paths at x0 = 1/2: shadow datasets under H_in (z0 = (1/2, 1) is in D) and H_out,\n"
      "density models fitted by maximum likelihood, evaluation on independent datasets. Reports\n"
      "AUC, TPR at FPR = 0.1/0.01/0.001, excess TPR and an empirical lower bound on ε (95 %,\n"
      "Clopper–Pearson), next to the accountant's (ε, δ) bound for the same release.");
  auto opts = std::make_shared<SpecOptions>(sub, lab::command_options("attack"));
  sub->footer(
      "Example: gpdp-lab attack --r 0.1 --sigma 5 --draws 3 --shadow 10000 --eval 10000 --seeds "
      "10");
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
