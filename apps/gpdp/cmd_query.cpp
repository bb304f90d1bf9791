// gpdp query: further points of a released path kept with `gpdp release --keep-path`, drawn
// conditionally on everything the path has already answered (lazy evaluation, docs/mathematics.md
// §1): the same path, so no privacy budget is consumed. Needs the data file of the release (its
// SHA-256 must match) and the ledger that recorded the path.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/release/release.hpp"
#include "options.hpp"
#include "release_options.hpp"

namespace gpdp::cli {

namespace {

void warn_not_private() {
  std::fprintf(stderr, "gpdp query: --insecure-seed: these answers are NOT PRIVATE\n");
}

struct QueryFlags {
  std::string path_file;
  std::string data;
  PointsOptions points;
  PathKeyFlags key;
  std::string out;
  std::string ledger;
  std::string crs;
  std::uint64_t seed = 0;
  bool json = false;
};

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "query",
      "Evaluate a kept released path at new points, conditionally on its earlier answers\n"
      "(no budget consumed). Example:\n"
      "  gpdp query path.gpdp --data d.csv --points new.csv --out new-values.csv");
  auto f = std::make_shared<QueryFlags>();
  sub->add_option("path", f->path_file, "Path file written by 'gpdp release --keep-path'")
      ->required();
  sub->add_option("--data", f->data, "The data file of the release (verified by SHA-256)")
      ->required();
  add_points_options(sub, f->points);
  add_path_key_flags(sub, f->key);
  sub->add_option("--crs", f->crs,
                  "CRS of the new points (AUTH:CODE; default: the release's --crs); points in "
                  "another CRS are transformed by PROJ, and a release without a CRS refuses it");
  sub->add_option("--out,-o", f->out, "Output CSV of the new released values")->required();
  sub->add_option("--ledger", f->ledger,
                  "Ledger that recorded the release (default: as in the path file)");
  auto* seed =
      sub->add_option("--insecure-seed", f->seed, "Seed the RNG (reproducible, NOT PRIVATE)");
  sub->add_flag("--json", f->json, "Print the summary as JSON");
  sub->callback([f, seed] {
    if (seed->count() > 0) warn_not_private();
    release::QueryRequest q;
    q.path_file = f->path_file;
    q.key = to_path_key(f->key);
    q.data_path = f->data;
    q.evaluation = to_evaluation_spec(f->points);
    q.out_csv = f->out;
    q.ledger_path = f->ledger;
    q.crs = f->crs;
    if (seed->count() > 0) q.insecure_seed = f->seed;
    const auto summary = release::run_query(q);
    if (f->json) {
      fmt::print("{}\n", summary.dump(2));
    } else {
      fmt::print(
          "gpdp query → {}: {} point(s) of {} kept path(s), conditionally on earlier answers; "
          "no budget consumed (path {} in ledger {})\n",
          summary["out"].get<std::string>(), summary["points"].get<long>(),
          summary["paths"].get<long>(), summary["path_id"].get<std::string>(),
          summary["ledger"].get<std::string>());
    }
  });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
