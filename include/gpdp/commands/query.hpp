#pragma once
// `gpdp query` as one declared request: its options as data (query_options(): the CLI's flags and
// positional path, apps/gpdp/cmd_query.cpp, and Python's gpdp.query keywords), the one reader of
// its JSON request (query_request_from_json: the CLI's, which --print-request prints, and
// Python's gpdp.query.command) and the command's run (run_query_command), which both front ends
// call. The request holds only the options given ({"path": "p.gpdp", "data": "d.csv", "grid":
// "0:1:5", "out": "new.csv"}). Errors name request parameters ("grid2d", "path_key",
// "evaluation"); each front end spells them its own way (the CLI as its flags).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/commands/outcome.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/release/release.hpp"

namespace gpdp::commands {

// The kept path (positional "path"), --data, the points (--points, --grid, --grid2d: exactly
// one), the path key (--path-key, --path-passphrase-env), --crs, --out, --ledger,
// --insecure-seed and --json (the CLI's own).
std::vector<options::OptionSpec> query_options();

// Checks, in this order: the path key (one of a key file or a passphrase variable, then read),
// the points (exactly one of points, grid, grid2d; a grid's number of axes). An empty text is an
// option not given. The rest (out required, the data's SHA-256, the ledger, the CRS, the points
// in the declared domain) is release::run_query's.
release::QueryRequest query_request_from_json(const nlohmann::json& request);

// The report, and as text release::run_query's summary.
using QueryOutcome = CommandOutcome;

// release::run_query: the new points answered, saved into the path and written to the out CSV.
QueryOutcome run_query_command(const release::QueryRequest& q);

}  // namespace gpdp::commands
