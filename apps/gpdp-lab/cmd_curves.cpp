// gpdp-lab curves: the (ε, δ) curves of the paper's Figure 1 (ε vs r, vs σ and vs L) for both
// conversions, as CSV and a figure. The flags are the library's options table
// (reproduce/curves.hpp); argv becomes the JSON request (--print-request shows it), which
// reproduce::curves_request_from_json reads; reproduce::run_curves draws and writes.
#include <fmt/format.h>

#include <memory>

#include "command.hpp"
#include "gpdp/lab/command_options.hpp"
#include "gpdp/reproduce/curves.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const auto out = reproduce::run_curves(
      reproduce::curves_request_from_json(parsed.request),
      [](const std::string& setting) { fmt::print(stderr, "curves: {}\n", setting); });
  fmt::print("wrote {} and {}\n", out.csv_path, out.figure_path);
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "curves",
      "Write the (ε, δ) curves of the paper's Figure 1 (ε vs r, vs σ and vs the number of draws "
      "L;\n"
      "generic Δ_n by Lemma B.1, RKHS Δ_n by Lemma B.8, added noise η = σ) for both conversions:\n"
      "DIR/curves.csv and DIR/curves.png (or .svg). V_n = V̄_n with the given κ², one draw unless\n"
      "the panel varies L.");
  auto opts = std::make_shared<SpecOptions>(sub, lab::command_options("curves"));
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
