// gpdp reproduce fig2 | fig3 | fig5 | fig6: the membership-inference figures (attack/figures.hpp),
// their sweeps on this machine's threads.
#include <fmt/format.h>

#include "gpdp/attack/figures.hpp"
#include "gpdp/tasks/executor.hpp"
#include "reproduce.hpp"

namespace gpdp::cli {

namespace {

void run_figure(const std::string& target, const ReproduceOptions& o) {
  attack::FigureOptions f;
  f.out_dir = o.out_dir;
  f.quick = o.quick;
  f.pairs = o.pairs;
  f.seed = o.seed;
  f.conversion = o.conversion;
  tasks::ThreadExecutor executor(o.threads);
  fmt::print("{}", attack::reproduce_figure(target, f, executor));
}

bool register_figures() {
  for (const auto& figure : attack::figures()) {
    register_reproduction(
        {figure.name, figure.description,
         [name = figure.name](const ReproduceOptions& o) { run_figure(name, o); }});
  }
  return true;
}

const bool registered = register_figures();

}  // namespace
}  // namespace gpdp::cli
