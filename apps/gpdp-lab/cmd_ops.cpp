// gpdp-lab ops: private logistic regression by One Posterior Sample, DP-SGLD, the hybrid, objective
// / output perturbation, or the non-private reference; test accuracy over repeats. The flags are
// the library's options table (ops/ops_command.hpp); argv becomes the JSON request
// (--print-request shows it), which ops::ops_request_from_json reads; ops::run_ops runs the repeats
// on threads and reports.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "command.hpp"
#include "gpdp/lab/command_options.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/ops/ops_command.hpp"
#include "gpdp/tasks/executor.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const auto request = ops::ops_request_from_json(parsed.request);
  tasks::ThreadExecutor executor(parsed.front_end.at("threads").get<int>(), lab::registry());
  const auto outcome = ops::run_ops(request, executor, [](long done, long total) {
    std::fprintf(stderr, "\rgpdp-lab ops: repeat %ld/%ld", done, total);
    if (done == total) std::fprintf(stderr, "\n");
  });
  if (parsed.front_end.at("json").get<bool>()) {
    fmt::print("{}\n", outcome.report.dump(2));
    std::fprintf(stderr, "gpdp-lab ops: %s\n", outcome.randomness.c_str());
  } else {
    fmt::print("{}", outcome.text);
  }
}

void setup(CLI::App& app) {
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
  auto opts = std::make_shared<SpecOptions>(sub, lab::command_options("ops"));
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
