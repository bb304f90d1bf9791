// gpdp hexbin: point records aggregated to a hexagonal lattice over a declared box (paper App.
// D.2), as one declared request (hexbin.hpp).
#include "gpdp/commands/hexbin.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "gpdp/error.hpp"
#include "gpdp/experiments/hexbin.hpp"
#include "gpdp/io/csv.hpp"
#include "io/atomic_file.hpp"
#include "parse.hpp"
#include "release/option_values.hpp"

namespace gpdp::commands {

namespace {
using nlohmann::json;
using options::option;
using options::OptionType;
}  // namespace

std::vector<options::OptionSpec> hexbin_options() {
  return {
      option("--data", OptionType::Text, nullptr, "Input CSV with a header").as_required(),
      option("--x", OptionType::Text, "x", "Column of the first coordinate"),
      option("--y", OptionType::Text, "y", "Column of the second coordinate"),
      option("--value", OptionType::Text, nullptr, "Column to aggregate (median per hexagon)")
          .as_required(),
      option("--log", OptionType::Flag, false, "Aggregate log(value) (values must be positive)"),
      option("--box", OptionType::Text, nullptr,
             "Declared domain xmin:xmax,ymin:ymax (records outside are dropped)")
          .as_required(),
      option("--cell-width", OptionType::Real, nullptr,
             "Distance between neighbouring hexagon centres")
          .as_required(),
      option("--where", OptionType::Text, nullptr,
             "Keep rows with COLUMN=VALUE[,VALUE...] (text match)"),
      option("--out", OptionType::Text, nullptr, "Output CSV").as_required(),
      option("--json", OptionType::Flag, false, "Print a JSON summary instead of one line")
          .in_scope(options::OptionScope::Cli),
  };
}

namespace {

// "COL=V1,V2,...": keep rows whose COL equals one of the values (text comparison).
void read_where(HexbinCommand& c) {
  const auto eq = c.where.find('=');
  require_parameter(eq != std::string::npos && eq > 0 && eq + 1 < c.where.size(), "where",
                    fmt::format("where must look like COLUMN=VALUE[,VALUE...], got '{}'", c.where));
  c.where_column = c.where.substr(0, eq);
  const std::string rest = c.where.substr(eq + 1);
  std::size_t start = 0;
  while (start <= rest.size()) {
    const auto comma = rest.find(',', start);
    c.where_values.insert(
        rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

}  // namespace

HexbinCommand hexbin_request_from_json(const json& request) {
  const auto o = release::declared_values(hexbin_options(), request, "hexbin", ".");
  const Box box = Box::parse(o.text("box"));
  require_parameter(box.dim() == 2, "box", "box needs two ranges: xmin:xmax,ymin:ymax");
  const double width = o.number("cell-width");
  require_parameter(std::isfinite(width) && width > 0, "cell_width",
                    fmt::format("cell_width must be positive, got {}", width));
  HexbinCommand c{.data = o.text("data"),
                  .x = o.text("x"),
                  .y = o.text("y"),
                  .value = o.text("value"),
                  .log = o.flag("log"),
                  .box = box,
                  .cell_width = width,
                  .where = o.has("where") ? o.text("where") : "",
                  .where_column = {},
                  .where_values = {},
                  .out = o.text("out")};
  if (!c.where.empty()) read_where(c);
  return c;
}

namespace {

struct Records {
  Eigen::MatrixXd xy;
  Eigen::VectorXd values;
};

// The rows the filter keeps, their coordinates and (log) values; errors name file, line, column.
Records read_records(const HexbinCommand& c) {
  const io::CsvTable table = io::read_csv(c.data);
  const std::size_t cx = table.column(c.x), cy = table.column(c.y), cv = table.column(c.value);
  std::optional<std::size_t> filter_column;
  if (!c.where.empty()) filter_column = table.column(c.where_column);
  std::vector<std::size_t> keep;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    if (filter_column && !c.where_values.contains(table.rows[i][*filter_column])) continue;
    keep.push_back(i);
  }
  require_parameter(!keep.empty(), "where",
                    fmt::format("{}: no records left after where {}", c.data, c.where));
  Records r{Eigen::MatrixXd(static_cast<Eigen::Index>(keep.size()), 2),
            Eigen::VectorXd(static_cast<Eigen::Index>(keep.size()))};
  for (std::size_t k = 0; k < keep.size(); ++k) {
    const auto& row = table.rows[keep[k]];
    const auto where = [&](const std::string& col) {
      return fmt::format("{}:{}: column '{}'", c.data, table.line_numbers[keep[k]], col);
    };
    const auto i = static_cast<Eigen::Index>(k);
    r.xy(i, 0) = parse_double(row[cx], where(c.x));
    r.xy(i, 1) = parse_double(row[cy], where(c.y));
    double value = parse_double(row[cv], where(c.value));
    if (c.log) {
      require_parameter(
          value > 0, "log",
          fmt::format("{}: log needs positive values, got {}", where(c.value), value));
      value = std::log(value);
    }
    r.values[i] = value;
  }
  return r;
}

std::string cells_csv(const experiments::HexbinResult& result, const Box& box) {
  Eigen::MatrixXd centres(static_cast<Eigen::Index>(result.cells.size()), 2);
  for (std::size_t k = 0; k < result.cells.size(); ++k) {
    centres(static_cast<Eigen::Index>(k), 0) = result.cells[k].x;
    centres(static_cast<Eigen::Index>(k), 1) = result.cells[k].y;
  }
  const Eigen::MatrixXd uv = experiments::unit_square_coordinates(centres, box);
  std::string csv = "column,row,x,y,u,v,median,count\n";
  for (std::size_t k = 0; k < result.cells.size(); ++k) {
    const auto& cell = result.cells[k];
    const auto i = static_cast<Eigen::Index>(k);
    csv +=
        fmt::format("{},{},{},{},{},{},{},{}\n", cell.column, cell.row, io::format_number(cell.x),
                    io::format_number(cell.y), io::format_number(uv(i, 0)),
                    io::format_number(uv(i, 1)), io::format_number(cell.median), cell.count);
  }
  return csv;
}

}  // namespace

HexbinOutcome run_hexbin_command(const HexbinCommand& c) {
  const Records records = read_records(c);
  const auto result =
      experiments::hexbin(records.xy, records.values, experiments::HexLattice{c.box, c.cell_width});
  require_parameter(!result.cells.empty(), "box", "hexbin: every record lies outside box");
  io::write_file_atomic(c.out, cells_csv(result, c.box));
  const long used = static_cast<long>(records.values.size()) - result.dropped_outside;
  HexbinOutcome outcome;
  outcome.report = json{{"out", c.out},
                        {"cells", result.cells.size()},
                        {"records_used", used},
                        {"records_outside_box", result.dropped_outside},
                        {"box", c.box.to_string()},
                        {"cell_width", c.cell_width},
                        {"value", c.value},
                        {"log", c.log},
                        {"where", c.where}};
  outcome.text =
      fmt::format("{}: {} non-empty hexagons from {} records ({} outside the box dropped)\n", c.out,
                  result.cells.size(), used, result.dropped_outside);
  return outcome;
}

}  // namespace gpdp::commands
