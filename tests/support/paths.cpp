#include "support/paths.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace gpdp::test {

std::string source_dir() { return GPDP_SOURCE_DIR; }
std::string cli_path() { return GPDP_CLI_PATH; }
std::string lab_cli_path() { return GPDP_LAB_CLI_PATH; }
std::string data_dir() { return (std::filesystem::path(GPDP_SOURCE_DIR) / "data").string(); }
std::string test_data_dir() {
  return (std::filesystem::path(GPDP_SOURCE_DIR) / "tests" / "data").string();
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() /
          ("gpdp-test-" + std::to_string(rd()) + "-" + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ec);
  std::filesystem::remove_all(path_, ec);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("test: cannot write " + path);
}

namespace {
CommandResult run_program(const std::string& program, const std::string& args) {
  TempDir tmp;
  const std::string out = tmp.file("stdout"), err = tmp.file("stderr");
  const std::string cmd = program + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return {code, read_text(out), read_text(err)};
}
}  // namespace

CommandResult run_cli(const std::string& args) { return run_program(cli_path(), args); }
CommandResult run_lab_cli(const std::string& args) { return run_program(lab_cli_path(), args); }

}  // namespace gpdp::test
