#include "gpdp/io/data_dir.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "gpdp/error.hpp"

namespace gpdp::io {

namespace fs = std::filesystem;

std::vector<std::string> data_dir_candidates(const std::string& explicit_dir) {
  if (!explicit_dir.empty()) return {explicit_dir};
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("GPDP_DATA_DIR"); env != nullptr && *env != '\0') {
    dirs.emplace_back(env);
  }
#ifdef GPDP_INSTALL_DATA_DIR
  dirs.emplace_back(GPDP_INSTALL_DATA_DIR);
#endif
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back((exe.parent_path() / ".." / "data").lexically_normal().string());
  return dirs;
}

std::string find_data_file(const std::string& name, const std::string& explicit_dir) {
  const auto dirs = data_dir_candidates(explicit_dir);
  for (const auto& dir : dirs) {
    for (const std::string& file : {name, name + ".gz"}) {
      std::error_code ec;
      const fs::path path = fs::path(dir) / file;
      if (fs::is_regular_file(path, ec)) return path.string();
    }
  }
  throw ParameterError(
      {"data_dir"},
      fmt::format("cannot find the data file {} (or {}.gz) in any data folder: tried {}; give the "
                  "folder that holds it as data_dir or in GPDP_DATA_DIR",
                  name, name, fmt::join(dirs, ", ")));
}

}  // namespace gpdp::io
