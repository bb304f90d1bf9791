// gpdp release: the main job. Private records in; released posterior sample paths, the excursion
// map, GeoJSON and a certificate out; the privacy budget of the named dataset kept in a ledger.
// The flags are the library's options table (release/release_options.hpp); argv becomes the JSON
// request (--print-request shows it), which release_request_from_json reads, as it reads a batch
// manifest's entry and Python's gpdp.release.run options.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "command.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/preview/release_config.hpp"
#include "gpdp/release/release.hpp"
#include "gpdp/release/request_from_json.hpp"
#include "release_summary.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

// What the parser checks before the request is read (the request's reader checks the same; here
// they are also shown in --help).
void declare_relations(const SpecOptions& opts) {
  declare_point_options(opts);
  opts.option("--solve")->needs(opts.option("--target-epsilon"));
  auto* be = opts.option("--budget-epsilon");
  auto* bd = opts.option("--budget-delta");
  be->needs(bd);
  bd->needs(be);
  opts.option("--budget-orders")->needs(be);
  auto* from = opts.option("--config-from");
  from->needs(opts.option("--target-epsilon"));
  for (const char* name :
       {"--kernel", "--ell", "--r", "--sigma", "--eta", "--mechanism", "--noise-scale",
        "--sensitivity", "--lemma", "--kappa", "--Vn", "--Delta-n", "--rkhs-norm", "--draws",
        "--conversion", "--solve", "--vote-cutoff", "--smooth"})
    from->excludes(opts.option(name));
}

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const auto request =
      release::release_request_from_json(parsed.request, {}, &preview::apply_preview_config);
  if (parsed.request.contains("lemma"))
    std::fprintf(stderr,
                 "gpdp: note: --lemma is deprecated; use --sensitivity (the same flag as in gpdp "
                 "account and gpdp calibrate)\n");
  const auto outcome = release::run_release(request);
  for (const auto& w : outcome.summary.value("warnings", nlohmann::json::array()))
    std::fprintf(stderr, "gpdp release: warning: %s\n", w.get<std::string>().c_str());
  if (parsed.front_end.value("json", false)) {
    fmt::print("{}\n", outcome.summary.dump(2));
  } else {
    fmt::print("{}", format_release_summary(outcome.summary));
  }
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "release",
      "Release private sample path(s) of the GP posterior and the excursion map {f ≥ t} derived\n"
      "from them, with an (ε, δ) certificate, under the privacy budget of a named dataset kept\n"
      "in a ledger. Example:\n"
      "  gpdp release --data d.csv --x lon,lat --y pm10 --domain 0:1,0:1 --M-Y 1 --kernel exp \\\n"
      "    --ell 0.2 --r 2 --sigma 1 --grid2d 0:1:64,0:1:64 --threshold 0 --delta 1e-4 \\\n"
      "    --dataset pm10-2024 --ledger budget.sqlite --budget-epsilon 2 --budget-delta 1e-4 \\\n"
      "    --out release1\n"
      "Writes into --out (a new or empty folder): draws.csv, map.png|svg, excursion.geojson "
      "(2-D),\n"
      "certificate.json. Only functions of the released paths are written there.");
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("release"));
  declare_relations(*opts);
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
