// Durability and concurrency of releases, with real processes: a release killed with SIGKILL at a
// random moment never leaves an output folder that the ledger does not account for, and
// concurrent releases against one budget never overspend.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "gpdp/release/ledger.hpp"
#include "support/paths.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;

std::string data_csv() {
  std::mt19937_64 gen(11);  // test data only
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 40; ++i) csv += fmt::format("{},{},{}\n", u(gen), u(gen), 2 * u(gen) - 1);
  return csv;
}

// Starts `gpdp release ...` directly (no shell, so SIGKILL hits the release itself).
pid_t spawn_release(const std::string& data, const std::string& ledger, const std::string& out,
                    const std::vector<std::string>& extra) {
  std::vector<std::string> args = {
      test::cli_path(), "release", "--data",    data,   "--domain", "0:1,0:1",
      "--ell",          "0.3",     "--r",       "3",    "--grid2d", "0:1:30,0:1:30",
      "--threshold",    "0",       "--delta",   "1e-3", "--ledger", ledger,
      "--out",          out,       "--dataset", "crash"};
  args.insert(args.end(), extra.begin(), extra.end());
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

TEST(ReleaseCrash, KillNineNeverLeavesUnaccountedOutputs) {
  test::TempDir dir;
  const std::string data = dir.file("d.csv"), ledger = dir.file("l.sqlite");
  test::write_text(data, data_csv());
  // One undisturbed release measures how long a release takes here.
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(wait_exit(spawn_release(data, ledger, dir.file("out0"), {})), 0);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::mt19937_64 gen(2024);  // kill times: fixed seed
  std::uniform_real_distribution<double> when(0.0, 1.3 * seconds);
  int killed = 0;
  for (int i = 1; i <= 24; ++i) {
    const pid_t pid = spawn_release(data, ledger, dir.file(fmt::format("out{}", i)), {});
    std::this_thread::sleep_for(std::chrono::duration<double>(when(gen)));
    killed += ::kill(pid, SIGKILL) == 0 && wait_exit(pid) == -SIGKILL;
  }
  // Every published folder is complete and accounted: its certificate names a ledger row.
  const auto rows = release::Ledger(ledger).dataset("crash")->releases;
  std::set<long long> ids;
  for (const auto& r : rows) ids.insert(r.id);
  long folders = 0;
  for (int i = 0; i <= 24; ++i) {
    const fs::path out = dir.file(fmt::format("out{}", i));
    if (!fs::exists(out)) continue;
    ++folders;
    ASSERT_TRUE(fs::exists(out / "certificate.json")) << out;
    const auto cert = nlohmann::json::parse(test::read_text((out / "certificate.json").string()));
    EXPECT_TRUE(ids.count(cert["ledger"]["release_id"].get<long long>())) << out;
  }
  EXPECT_LE(folders, static_cast<long>(rows.size()));
  EXPECT_GT(killed, 0);
  RecordProperty("killed", killed);
  RecordProperty("folders", static_cast<int>(folders));
  RecordProperty("ledger_rows", static_cast<int>(rows.size()));
}

TEST(ReleaseCrash, ConcurrentReleasesNeverOverspend) {
  test::TempDir dir;
  const std::string data = dir.file("d.csv"), ledger = dir.file("l.sqlite");
  test::write_text(data, data_csv());
  // Budget 1.2: one release of ε = 1 fits, a second (composed ≥ 1.2) does not.
  const std::vector<std::string> extra = {"--target-epsilon", "1",   "--budget-epsilon", "1.2",
                                          "--budget-delta",   "1e-3"};
  std::vector<pid_t> pids;
  for (int i = 0; i < 4; ++i)
    pids.push_back(spawn_release(data, ledger, dir.file(fmt::format("c{}", i)), extra));
  int ok = 0, refused = 0;
  for (pid_t pid : pids) {
    const int code = wait_exit(pid);
    ok += code == 0;
    refused += code == 2;
  }
  EXPECT_EQ(ok, 1);
  EXPECT_EQ(refused, 3);
  EXPECT_EQ(release::Ledger(ledger).dataset("crash")->releases.size(), 1u);
  int folders = 0;
  for (int i = 0; i < 4; ++i) folders += fs::exists(dir.file(fmt::format("c{}", i)));
  EXPECT_EQ(folders, 1);
}

}  // namespace
}  // namespace gpdp
