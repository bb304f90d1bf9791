#include "gpdp/io/csv.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <set>
#include <sstream>

#include "gpdp/error.hpp"
#include "gpdp/io/gzip.hpp"
#include "parse.hpp"

namespace gpdp::io {

std::size_t CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  throw InputError(
      fmt::format("{}: no column named '{}' (columns: {})", source, name, fmt::join(header, ", ")));
}

Eigen::MatrixXd CsvTable::numeric(const std::vector<std::string>& names) const {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(rows.size()),
                      static_cast<Eigen::Index>(names.size()));
  for (std::size_t c = 0; c < names.size(); ++c) {
    const std::size_t col = column(names[c]);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      out(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = parse_double(
          rows[r][col], fmt::format("{}:{}: column '{}'", source, line_numbers[r], names[c]));
    }
  }
  return out;
}

namespace {

// Splits one logical record starting at text[pos]; advances pos and the line counter.
std::vector<std::string> split_record(const std::string& text, std::size_t& pos, std::size_t& line,
                                      const std::string& source) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  const std::size_t start_line = line;
  while (pos < text.size()) {
    const char ch = text[pos++];
    if (quoted) {
      if (ch == '"') {
        if (pos < text.size() && text[pos] == '"') {
          field += '"';
          ++pos;
        } else {
          quoted = false;
        }
      } else {
        if (ch == '\n') ++line;
        field += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else if (ch == '\n') {
      ++line;
      break;
    } else if (ch != '\r') {
      field += ch;
    }
  }
  if (quoted) throw InputError(fmt::format("{}:{}: unterminated quoted field", source, start_line));
  fields.push_back(std::move(field));
  return fields;
}

bool blank(const std::vector<std::string>& fields) {
  return fields.size() == 1 && fields[0].find_first_not_of(" \t") == std::string::npos;
}

}  // namespace

CsvTable parse_csv(const std::string& text, const std::string& source) {
  CsvTable table;
  table.source = source;
  std::size_t pos = 0, line = 1;
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) pos = 3;  // UTF-8 byte-order mark
  while (pos < text.size() && table.header.empty()) {
    auto fields = split_record(text, pos, line, source);
    if (!blank(fields)) table.header = std::move(fields);
  }
  if (table.header.empty())
    throw InputError(fmt::format("{}: file is empty (no header row)", source));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < table.header.size(); ++i) {
    const auto& name = table.header[i];
    if (name.empty())
      throw InputError(fmt::format("{}:1: header field {} is empty", source, i + 1));
    if (!seen.insert(name).second) {
      throw InputError(fmt::format("{}:1: duplicate header name '{}'", source, name));
    }
  }
  while (pos < text.size()) {
    const std::size_t record_line = line;
    auto fields = split_record(text, pos, line, source);
    if (blank(fields)) continue;
    if (fields.size() != table.header.size()) {
      throw InputError(fmt::format("{}:{}: expected {} fields (as in the header), found {}", source,
                                   record_line, table.header.size(), fields.size()));
    }
    table.rows.push_back(std::move(fields));
    table.line_numbers.push_back(record_line);
  }
  return table;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open file for reading", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("{}: read error", path));
  return ss.str();
}

CsvTable read_csv(const std::string& path) {
  const bool gzipped = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  return parse_csv(gzipped ? gunzip(read_file(path), path) : read_file(path), path);
}

std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\n\r") == std::string::npos) return value;
  std::string out = "\"";
  for (char ch : value) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string format_number(double value) {
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  return ec == std::errc() ? std::string(buf, ptr) : fmt::format("{}", value);
}

}  // namespace gpdp::io
