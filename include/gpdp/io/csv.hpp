#pragma once
// CSV input with errors that name file, line and field. Comma separated, header row, "" quoting.
#include <Eigen/Core>
#include <string>
#include <vector>

namespace gpdp::io {

struct CsvTable {
  std::string source;  // file name (for messages)
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // rows[i] has header.size() fields
  std::vector<std::size_t> line_numbers;       // 1-based line of rows[i] in the source

  // Index of column `name`, or InputError listing the available columns.
  std::size_t column(const std::string& name) const;
  // The named columns as numbers (rows x names.size()); a non-numeric, NaN or Inf cell is an
  // InputError "file:line: column 'name': ...".
  Eigen::MatrixXd numeric(const std::vector<std::string>& names) const;
};

// Parses CSV text. Rejects: empty input, a header with empty or duplicate names, rows whose field
// count differs from the header's. Blank lines are skipped.
CsvTable parse_csv(const std::string& text, const std::string& source);
// Reads and parses a file (gzip-compressed when the name ends in .gz); InputError if it is
// missing, unreadable or not valid gzip.
CsvTable read_csv(const std::string& path);
std::string read_file(const std::string& path);

// A CSV field, quoted only when it must be.
std::string csv_field(const std::string& value);
// Shortest decimal text that round-trips the double.
std::string format_number(double value);

}  // namespace gpdp::io
