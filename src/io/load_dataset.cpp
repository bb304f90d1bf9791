#include "load_dataset.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"

namespace gpdp::io {

Dataset load_dataset(const std::string& path, std::vector<std::string> covariates,
                     const std::string& response) {
  const auto table = read_csv(path);
  if (covariates.empty()) {
    for (int i = 1;; ++i) {
      const std::string name = fmt::format("x{}", i);
      if (std::find(table.header.begin(), table.header.end(), name) == table.header.end()) break;
      covariates.push_back(name);
    }
    if (covariates.empty()) {
      throw ParameterError(
          {"x"}, fmt::format("{}: no covariate columns x1, x2, ... (name them with x)", path));
    }
  }
  if (table.rows.empty()) throw InputError(fmt::format("{}: no data rows after the header", path));
  Dataset d;
  d.source = path;
  d.X = table.numeric(covariates);
  d.y = table.numeric({response}).col(0);
  d.covariate_names = std::move(covariates);
  d.response_name = response;
  d.line_numbers = table.line_numbers;
  return d;
}

}  // namespace gpdp::io
