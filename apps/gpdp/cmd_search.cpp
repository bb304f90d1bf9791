// gpdp search: privacy-constrained hyperparameter selection for excursion-set release on a user's
// own PUBLIC data (paper eqs. 6–7; docs/utility.md "gpdp search").
#include <cstdio>
#include <string>

#include "command.hpp"
#include "gpdp/experiments/public_search_run.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gpdp::cli {

namespace {

struct SearchArgs {
  experiments::PublicSearchRequest request;
  int threads = 0;
};

// The driver (experiments/public_search_run.hpp) with its θ evaluations on this process's threads.
void run(const SearchArgs& a) {
  tasks::ThreadExecutor executor(a.threads);
  const std::string report =
      experiments::run_public_search(a.request, executor, &experiments::print_search_progress);
  std::fputs(report.c_str(), stdout);
}

void setup(CLI::App& app) {
  auto args = std::make_shared<SearchArgs>();
  auto* o = &args->request;
  auto* sub = app.add_subcommand(
      "search",
      "Privacy-constrained hyperparameter selection for excursion-set release (paper eqs. 6-7).\n"
      "Fits the exponential-kernel GP to --data (PUBLIC training data, e.g. an earlier year) and\n"
      "scores θ = (ℓ, r, σ) by the mean BCE of p_D at the --validation covariates against the "
      "labels\n"
      "1{y_val ≥ t} (independent PUBLIC observations of the same field). Returns the best θ "
      "overall\n"
      "and the best θ with ε_L(θ) < --target-epsilon for a PRIVATE data set of --n records\n"
      "(Lemma B.7 in 1-D, B.1 otherwise; κ on the unit box). Neither file may be the private "
      "data:\n"
      "selecting θ on private data is not covered by the guarantee (paper §6).\n"
      "The θ evaluations run as tasks (one per length-scale ℓ of a round): the same result on\n"
      "any --threads, and on a cluster with `python -m gpdp.distributed search` (docs/scale.md).");
  sub->add_option("--data", o->data, "Public training CSV (covariates in [0,1]^d, |y| ≤ 1)")
      ->required();
  sub->add_option("--validation", o->validation, "Public validation CSV (same columns)")
      ->required();
  sub->add_option("--x", o->x, "Covariate column names (default x1, x2, ...)")->delimiter(',');
  sub->add_option("--y", o->y, "Response column")->capture_default_str();
  sub->add_option("--target-epsilon", o->target_epsilon, "ε₀: the private θ has ε_L(θ) < ε₀")
      ->capture_default_str();
  sub->add_option("--delta", o->delta, "δ (default n^(−1.1))");
  sub->add_option("--n", o->n,
                  "Size of the PRIVATE data set the release will use (default: rows of --data)");
  sub->add_option("--paths", o->paths, "L: released paths (composed)")->capture_default_str();
  sub->add_option("--threshold", o->threshold, "Excursion level t")->capture_default_str();
  sub->add_option("--conversion", o->conversion, "RDP→(ε,δ): mironov or cks")
      ->capture_default_str();
  sub->add_option("--ell-range", o->ell_range, "Coarse ℓ grid lo:hi:count (log-spaced)");
  sub->add_option("--r-range", o->r_range, "Coarse r grid lo:hi:count");
  sub->add_option("--sigma-range", o->sigma_range, "Coarse σ grid lo:hi:count");
  sub->add_option("--refine", o->refine, "Refinement rounds around the top 3")
      ->capture_default_str();
  sub->add_option("--threads", args->threads,
                  "Threads running the θ evaluations (one task per ℓ; 0 = all cores)");
  sub->add_option("--out", o->out, "Also write the JSON result to this file");
  sub->add_flag("--json", o->json, "Print JSON instead of text");
  sub->callback([args] { run(*args); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
