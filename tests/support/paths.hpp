#pragma once
// Shared helpers for tests: repository paths, temporary folders, running the CLI.
#include <filesystem>
#include <string>

namespace gpdp::test {

std::string source_dir();
std::string cli_path();       // gpdp (the product)
std::string lab_cli_path();   // gpdp-lab (the research tools)
std::string data_dir();       // the repository's data/ (the data sets gpdp ships)
std::string test_data_dir();  // tests/data (golden values)

// A fresh, empty temporary directory removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code;
  std::string out;
  std::string err;
};
// Runs `gpdp <args>` (`gpdp-lab <args>`) through /bin/sh (args are passed verbatim, quote as
// needed).
CommandResult run_cli(const std::string& args);
CommandResult run_lab_cli(const std::string& args);
void write_text(const std::string& path, const std::string& text);
std::string read_text(const std::string& path);

}  // namespace gpdp::test
