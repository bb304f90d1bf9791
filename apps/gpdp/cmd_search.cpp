// gpdp search: privacy-constrained hyperparameter selection for excursion-set release on a user's
// own PUBLIC data (paper eqs. 6–7; docs/utility.md "gpdp search").
#include <cstdio>
#include <functional>
#include <string>

#include "command.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/experiments/public_search_run.hpp"
#include "gpdp/tasks/executor.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

// The driver (experiments/public_search_run.hpp) with its θ evaluations on this process's threads.
void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed();
  if (SpecOptions::print_request(parsed)) return;
  const auto request = experiments::public_search_request_from_json(parsed.request);
  tasks::ThreadExecutor executor(parsed.front_end.at("threads").get<int>());
  const std::string report = experiments::run_public_search(
      request, executor, experiments::search_progress(parsed.front_end.at("quiet").get<bool>()));
  std::fputs(report.c_str(), stdout);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "search",
      "Privacy-constrained hyperparameter selection for excursion-set release (paper eqs. 6-7).\n"
      "Fits the exponential-kernel GP to --data (PUBLIC training data, e.g. an earlier year) and\n"
      "scores θ = (ℓ, r, σ) by the mean BCE of p_D at the --validation covariates against the\n"
      "labels 1{y_val ≥ t} (independent PUBLIC observations of the same field). Returns the best\n"
      "θ overall and the best θ with ε_L(θ) < --target-epsilon for a PRIVATE data set of --n\n"
      "records (Lemma B.7 in 1-D, B.1 otherwise; κ on the unit box). Neither file may be the\n"
      "private data: selecting θ on private data is not covered by the guarantee (paper §6).\n"
      "The θ evaluations run as tasks (one per length-scale ℓ of a round): the same result on\n"
      "any --threads, and on a cluster with `python -m gpdp.distributed search` (docs/scale.md).");
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("search"));
  sub->footer(
      "Example: gpdp search --data public_train.csv --validation public_val.csv --x x1,x2 "
      "--target-epsilon 10 --n 292");
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
