#pragma once
// `gpdp hexbin` as one declared request: its options as data (hexbin_options(): the CLI's flags,
// apps/gpdp/cmd_hexbin.cpp, and Python's gpdp.hexbin keywords), the one reader of its JSON request
// (hexbin_request_from_json: the CLI's, which --print-request prints, and Python's
// gpdp.hexbin.command) and the command's run (run_hexbin_command), which both front ends call. The
// request holds only the options given; the reader gives the others the table's defaults. Errors
// name request parameters ("box", "cell_width", "where"); each front end spells them its own way.
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "gpdp/commands/outcome.hpp"
#include "gpdp/domain.hpp"
#include "gpdp/options/option_spec.hpp"

namespace gpdp::commands {

// --data, --x, --y, --value, --log, --box, --cell-width, --where, --out and --json (the CLI's own).
std::vector<options::OptionSpec> hexbin_options();

// The request read and validated (the box has two ranges, the width is positive and finite, the
// row filter is well formed); the data file is read by the run.
struct HexbinCommand {
  std::string data;   // CSV with a header
  std::string x, y;   // coordinate columns
  std::string value;  // the column aggregated (median per hexagon)
  bool log = false;   // aggregate log(value)
  Box box;            // the declared box: the lattice depends only on it and the width
  double cell_width = 0.0;
  std::string where;  // "COLUMN=V1,V2,..." as given ("" keeps every row)
  std::string where_column;
  std::set<std::string> where_values;  // rows kept: their where_column is one of these (text)
  std::string out;                     // the output CSV (written atomically)
};

HexbinCommand hexbin_request_from_json(const nlohmann::json& request);

// The report, and as text the line saying what was written.
using HexbinOutcome = CommandOutcome;

// Reads the records, aggregates them (experiments::hexbin), writes the cells' CSV
// (column,row,x,y,u,v,median,count) and says what it wrote.
HexbinOutcome run_hexbin_command(const HexbinCommand& c);

}  // namespace gpdp::commands
