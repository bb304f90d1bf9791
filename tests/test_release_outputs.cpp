// Errors that validation can catch spend no budget (issue #29, hole 6): a symlinked --out, a
// --keep-path in a missing folder or on another release's kept path, releases racing for one
// --out, a file system without room are all refused before the ledger is charged; a failure after
// the charge (here: writes beyond RLIMIT_FSIZE) marks the ledger row "failed", not "published",
// and leaves nothing behind (no folder, no staging folder, no kept path, no temporary).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/outputs.hpp"
#include "support/paths.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;

struct Fixture {
  test::TempDir dir;
  std::string data = dir.file("d.csv");
  std::string ledger = dir.file("ledger.sqlite");
  Fixture() {
    std::string csv = "x1,x2,y\n";
    for (int i = 0; i < 30; ++i)
      csv += fmt::format("{},{},{}\n", (i % 6) / 6.0 + 0.05, (i / 6) / 5.0 + 0.05, (i % 7) / 7.0);
    test::write_text(data, csv);
  }
  std::string args(const std::string& extra, const std::string& grid = "0:1:12,0:1:10") const {
    return fmt::format(
        "release --data {} --domain 0:1,0:1 --ell 0.3 --r 3 --threshold 0 --delta 1e-3 "
        "--grid2d {} --dataset outputs --ledger {} {}",
        data, grid, ledger, extra);
  }
  std::vector<release::LedgerEntry> rows() const {
    if (!fs::exists(ledger)) return {};
    const auto d = release::Ledger::open_existing(ledger).dataset("outputs");
    return d ? d->releases : std::vector<release::LedgerEntry>{};
  }
  // Files whose names start with a dot (staging folders, temporaries) in the test folder.
  std::vector<std::string> leftovers() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir.path()))
      if (e.path().filename().string().front() == '.') out.push_back(e.path().filename());
    return out;
  }
};

void expect_refused(const test::CommandResult& r, const std::string& why) {
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
}

TEST(ReleaseOutputs, SymlinkedOutIsRefusedBeforeTheCharge) {
  Fixture f;
  fs::create_directory(f.dir.file("real"));
  fs::create_directory_symlink(f.dir.file("real"), f.dir.file("link"));
  expect_refused(test::run_cli(f.args("--out " + f.dir.file("link"))), "symbolic link");
  EXPECT_TRUE(f.rows().empty());
  EXPECT_TRUE(fs::is_empty(f.dir.file("real")));
}

TEST(ReleaseOutputs, KeepPathThatCannotBeWrittenIsRefusedBeforeTheCharge) {
  Fixture f;
  expect_refused(test::run_cli(f.args("--out " + f.dir.file("o1") + " --keep-path " +
                                      f.dir.file("missing/p.gpdp"))),
                 "does not exist or is not writable");
  test::write_text(f.dir.file("file"), "x");
  expect_refused(test::run_cli(f.args("--out " + f.dir.file("o2") + " --keep-path " +
                                      f.dir.file("file/p.gpdp"))),
                 "--keep-path");
  EXPECT_TRUE(f.rows().empty());
  EXPECT_FALSE(fs::exists(f.dir.file("o1")));
  EXPECT_FALSE(fs::exists(f.dir.file("o2")));
}

TEST(ReleaseOutputs, AnotherReleasesKeptPathIsNeverOverwritten) {
  Fixture f;
  const std::string kept = f.dir.file("p.gpdp");
  ASSERT_EQ(test::run_cli(f.args("--out " + f.dir.file("a") + " --keep-path " + kept)).exit_code,
            0);
  const std::string before = test::read_text(kept);
  expect_refused(test::run_cli(f.args("--out " + f.dir.file("b") + " --keep-path " + kept)),
                 "never overwrites a kept path");
  EXPECT_TRUE(test::read_text(kept) == before) << "the first release's kept path was replaced";
  EXPECT_EQ(f.rows().size(), 1u);
  EXPECT_FALSE(fs::exists(f.dir.file("b")));
}

TEST(ReleaseOutputs, ReleasesRacingForOneOutAreChargedOnce) {
  Fixture f;
  const std::string out = f.dir.file("shared-out");
  std::vector<int> codes(4, -1);
  std::vector<std::thread> racers;
  for (int i = 0; i < 4; ++i)
    racers.emplace_back([&, i] { codes[i] = test::run_cli(f.args("--out " + out)).exit_code; });
  for (auto& t : racers) t.join();
  EXPECT_EQ(std::count(codes.begin(), codes.end(), 0), 1);
  const auto rows = f.rows();
  ASSERT_EQ(rows.size(), 1u) << "releases that could not publish were charged";
  EXPECT_EQ(rows[0].state, release::ReleaseState::Published);
  EXPECT_TRUE(fs::exists(out + "/certificate.json"));
  EXPECT_TRUE(f.leftovers().empty());
}

// Writes beyond 400 KiB fail (RLIMIT_FSIZE, SIGXFSZ ignored): the ledger (tens of KiB) is written,
// the kept path and draws.csv of a 1-D path at 50 000 points (megabytes; drawn in O(m) by the
// Markov sampler) are not, after the charge.
TEST(ReleaseOutputs, FailureAfterTheChargeMarksTheRowFailedAndLeavesNothing) {
  Fixture f;
  std::string csv = "x1,y\n";
  for (int i = 0; i < 30; ++i) csv += fmt::format("{},{}\n", (i + 0.5) / 30, (i % 5) / 5.0);
  test::write_text(f.data, csv);
  const std::string out = f.dir.file("big"), kept = f.dir.file("big.gpdp");
  const std::string cmd = fmt::format(
      "bash -c 'ulimit -f 400; trap \"\" XFSZ; exec {} release --data {} --domain 0:1 --ell 0.3 "
      "--r 3 --threshold 0 --delta 1e-3 --grid 0:1:50000 --dataset outputs --ledger {} --out {} "
      "--keep-path {}' >{} 2>{}",
      test::cli_path(), f.data, f.ledger, out, kept, f.dir.file("o.txt"), f.dir.file("e.txt"));
  const int status = std::system(cmd.c_str());
  const std::string err = test::read_text(f.dir.file("e.txt"));
  EXPECT_NE(status, 0);
  EXPECT_NE(err.find("'failed'"), std::string::npos) << err;
  const auto rows = f.rows();
  ASSERT_EQ(rows.size(), 1u) << err;
  EXPECT_EQ(rows[0].state, release::ReleaseState::Failed);
  EXPECT_FALSE(rows[0].state_note.empty());
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(kept));
  const auto left = f.leftovers();
  EXPECT_TRUE(left.empty()) << left.front();
}

TEST(ReleaseOutputs, NoRoomIsRefusedBeforeTheCharge) {
  test::TempDir dir;
  EXPECT_NO_THROW(release::check_room(dir.path().string(), 1 << 20, "out_dir"));
  EXPECT_THROW(release::check_room(dir.path().string(), std::uintmax_t{1} << 62, "out_dir"),
               ParameterError);
}

}  // namespace
}  // namespace gpdp
