// gpdp query: further points of a released path kept with `gpdp release --keep-path`, drawn
// conditionally on everything the path has already answered (docs/mathematics.md §1), as one
// declared request (query.hpp).
#include "gpdp/commands/query.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/release/path_store.hpp"
#include "gpdp/release/release_options.hpp"
#include "options/model_options.hpp"
#include "release/option_values.hpp"

namespace gpdp::commands {

namespace {
using nlohmann::json;
using options::option;
using options::OptionType;

// An option's text, "" when it is absent (an empty text is an option not given, as the CLI
// always read them).
std::string text_of(const release::OptionValues& o, const std::string& key) {
  return o.has(key) ? o.text(key) : std::string();
}

release::PathKey read_path_key(const release::OptionValues& request) {
  const std::string file = text_of(request, "path-key");
  const std::string variable = text_of(request, "path-passphrase-env");
  if (!file.empty() && !variable.empty())
    throw ParameterError({"path_key"},
                         "path_key: give a key file or a passphrase variable, not both");
  if (!file.empty()) return release::key_from_file(file);
  if (!variable.empty()) return release::key_from_env(variable);
  return {};
}

release::EvaluationSpec read_points(const release::OptionValues& request) {
  const std::string points = text_of(request, "points");
  const std::string grid = text_of(request, "grid");
  const std::string grid2d = text_of(request, "grid2d");
  if (points.empty() + grid.empty() + grid2d.empty() != 2)
    throw ParameterError({"points", "grid", "grid2d"},
                         "give exactly one of points FILE, grid lo:hi:m, grid2d lo:hi:m,lo:hi:m");
  if (!points.empty()) return release::FilePoints{points};
  const bool one = !grid.empty();
  Grid parsed = Grid::parse(one ? grid : grid2d);
  if (one)
    require_parameter(parsed.dim() == 1, "grid", "grid needs one axis lo:hi:m");
  else
    require_parameter(parsed.dim() == 2, "grid2d", "grid2d needs two axes lo:hi:nx,lo:hi:ny");
  return release::GridPoints{std::move(parsed), ""};
}

}  // namespace

std::vector<options::OptionSpec> query_options() {
  std::vector<options::OptionSpec> specs{
      option("path", OptionType::Text, nullptr, "Path file written by 'gpdp release --keep-path'")
          .as_positional()
          .as_required(),
      option("--data", OptionType::Text, nullptr,
             "The data file of the release (verified by SHA-256)")
          .as_required()};
  specs = options::concat(specs, release::points_options());
  specs = options::concat(specs, release::path_key_options());
  return options::concat(
      specs, {option("--crs", OptionType::Text, nullptr,
                     "CRS of the new points (AUTH:CODE; default: the release's --crs); points in "
                     "another CRS are transformed by PROJ, and a release without a CRS refuses it"),
              option("--out", OptionType::Text, nullptr, "Output CSV of the new released values")
                  .with_alias("-o")
                  .as_required(),
              option("--ledger", OptionType::Text, nullptr,
                     "Ledger that recorded the release (default: as in the path file)"),
              option("--insecure-seed", OptionType::Integer, nullptr,
                     "Seed the RNG (reproducible, NOT PRIVATE)"),
              option("--json", OptionType::Flag, false, "Print the summary as JSON")
                  .in_scope(options::OptionScope::Cli)});
}

release::QueryRequest query_request_from_json(const json& request) {
  const auto o = release::declared_values(query_options(), request, "query");
  release::QueryRequest q;
  q.path_file = text_of(o, "path");
  q.data_path = text_of(o, "data");
  q.key = read_path_key(o);
  q.evaluation = read_points(o);
  q.out_csv = text_of(o, "out");
  q.ledger_path = text_of(o, "ledger");
  q.crs = text_of(o, "crs");
  if (o.has("insecure-seed")) q.insecure_seed = o.unsigned_integer("insecure-seed");
  return q;
}

QueryOutcome run_query_command(const release::QueryRequest& q) {
  const json summary = release::run_query(q);
  return {summary,
          fmt::format("gpdp query → {}: {} point(s) of {} kept path(s), conditionally on earlier "
                      "answers; no budget consumed (path {} in ledger {})\n",
                      summary["out"].get<std::string>(), summary["points"].get<long>(),
                      summary["paths"].get<long>(), summary["path_id"].get<std::string>(),
                      summary["ledger"].get<std::string>())};
}

}  // namespace gpdp::commands
