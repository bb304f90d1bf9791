#include "gpdp/ops/data_source.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "gpdp/error.hpp"

namespace gpdp::ops {

namespace fs = std::filesystem;

std::vector<std::string> data_dir_candidates(const std::string& explicit_dir) {
  if (!explicit_dir.empty()) return {explicit_dir};
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("GPDP_DATA_DIR"); env != nullptr && *env != '\0')
    dirs.emplace_back(env);
  if (const char* env = std::getenv("GPDP_SHARED_DIR"); env != nullptr && *env != '\0') {
    dirs.push_back((fs::path(env) / "data").string());
  }
  dirs.emplace_back("../shared/data");
  dirs.emplace_back("shared/data");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    dirs.push_back(
        (exe.parent_path() / ".." / ".." / "shared" / "data").lexically_normal().string());
  dirs.emplace_back("/work/shared/data");
  return dirs;
}

std::string find_data_dir(const std::string& explicit_dir, const std::string& file) {
  const auto dirs = data_dir_candidates(explicit_dir);
  for (const auto& d : dirs) {
    std::error_code ec;
    if (fs::is_regular_file(fs::path(d) / file, ec)) return d;
  }
  std::string tried;
  for (const auto& d : dirs) tried += (tried.empty() ? "" : ", ") + d;
  throw InputError(
      fmt::format("--data: cannot find {} in any data folder (tried {}); pass --data-dir DIR "
                  "or set GPDP_DATA_DIR",
                  file, tried));
}

TabularSource load_source(const std::string& data, const std::string& explicit_dir,
                          const std::string& label_column) {
  if (data == "abalone") return abalone_source(find_data_dir(explicit_dir, "abalone.csv"));
  if (data == "adult") {
    const std::string dir = find_data_dir(explicit_dir, "adult_train.csv");
    return adult_source(dir);
  }
  require(fs::is_regular_file(data),
          fmt::format("--data: '{}' is neither abalone, adult nor a readable file", data));
  return csv_source(data, label_column);
}

}  // namespace gpdp::ops
