#include "gpdp/ops/data_source.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "gpdp/error.hpp"
#include "gpdp/io/data_dir.hpp"

namespace gpdp::ops {

TabularSource load_source(const std::string& data, const std::string& data_dir,
                          const std::string& label_column) {
  if (data == "abalone") return abalone_source(io::find_data_file("abalone.csv", data_dir));
  if (data == "adult") {
    return adult_source(io::find_data_file("adult_train.csv", data_dir),
                        io::find_data_file("adult_test.csv", data_dir));
  }
  require(std::filesystem::is_regular_file(data),
          fmt::format("data: '{}' is neither abalone, adult nor a readable file", data));
  return csv_source(data, label_column);
}

}  // namespace gpdp::ops
