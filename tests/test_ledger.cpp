// The privacy-budget ledger: composition against a fixed budget, refusal without side effects,
// durability across processes, serialised concurrent spending, and corrupted files.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <numeric>

#include "gpdp/error.hpp"
#include "gpdp/release/ledger.hpp"
#include "support/paths.hpp"

namespace gpdp::release {
namespace {

// A stand-in composition: ε adds (basic composition); the ledger itself never interprets it.
double basic_composition(const std::vector<LedgerEntry>& entries, double) {
  return std::accumulate(entries.begin(), entries.end(), 0.0,
                         [](double s, const LedgerEntry& e) { return s + e.epsilon; });
}

LedgerEntry entry(const std::string& hash, double eps) {
  LedgerEntry e;
  e.dataset_sha256 = hash;
  e.mechanism = {{"kind", "test"}, {"count", 1}};
  e.epsilon = eps;
  e.delta = 1e-5;
  e.conversion = "cks";
  e.parameters = {{"r", 2.0}};
  e.out_dir = "/tmp/x";
  return e;
}

TEST(Ledger, ComposesAgainstBudgetAndRefusesWithoutWriting) {
  test::TempDir dir;
  const std::string path = dir.file("l.sqlite");
  Ledger ledger(path);
  const Budget budget{1.0, 1e-5};
  const auto d1 = ledger.record(entry("aa", 0.4), budget, basic_composition);
  EXPECT_DOUBLE_EQ(d1.epsilon_before, 0.0);
  EXPECT_DOUBLE_EQ(d1.epsilon_after, 0.4);
  const auto d2 =
      ledger.record(entry("aa", 0.4), std::nullopt, basic_composition);  // stored budget applies
  EXPECT_DOUBLE_EQ(d2.epsilon_after, 0.8);
  EXPECT_THROW(ledger.record(entry("aa", 0.4), std::nullopt, basic_composition), PrivacyError);
  EXPECT_EQ(ledger.releases("aa").size(), 2u);
  // Another dataset has its own (absent) budget.
  ledger.record(entry("bb", 5.0), std::nullopt, basic_composition);
  EXPECT_EQ(ledger.releases("bb").size(), 1u);
  EXPECT_FALSE(ledger.budget("bb").has_value());
  // A budget, once fixed, cannot be raised.
  EXPECT_THROW(ledger.record(entry("aa", 0.1), Budget{10.0, 1e-5}, basic_composition),
               PrivacyError);
  EXPECT_EQ(ledger.releases("aa").size(), 2u);
  // Rows round-trip, including the JSON mechanism.
  const auto rows = Ledger::open_existing(path).releases("aa");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].mechanism["kind"], "test");
  EXPECT_EQ(rows[1].parameters["r"], 2.0);
  EXPECT_LT(rows[0].id, rows[1].id);
}

TEST(Ledger, RejectsFilesThatAreNotLedgers) {
  test::TempDir dir;
  test::write_text(dir.file("junk"), std::string(5000, 'x'));
  EXPECT_THROW(Ledger{dir.file("junk")}, InputError);
  EXPECT_THROW(Ledger::open_existing(dir.file("missing")), InputError);
  // A valid SQLite database of another application.
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(dir.file("other.db").c_str(), &other), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "CREATE TABLE t(x);", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);
  EXPECT_THROW(Ledger{dir.file("other.db")}, InputError);
  // A gpdp ledger whose pages were damaged.
  {
    Ledger l(dir.file("l.sqlite"));
    for (int i = 0; i < 50; ++i) l.record(entry("cc", 0.01), std::nullopt, basic_composition);
  }
  std::string bytes = test::read_text(dir.file("l.sqlite"));
  for (std::size_t i = 4096; i < bytes.size(); i += 7) bytes[i] = static_cast<char>(0xA5);
  test::write_text(dir.file("l.sqlite"), bytes);
  EXPECT_THROW(
      {
        Ledger l(dir.file("l.sqlite"));
        l.releases("cc");
      },
      InputError);
}

// Eight processes race to spend 0.3 each from a budget of 1.0: exactly three may succeed.
TEST(Ledger, ConcurrentProcessesNeverOverspend) {
  test::TempDir dir;
  const std::string path = dir.file("l.sqlite");
  { Ledger init(path); }
  std::vector<pid_t> children;
  for (int i = 0; i < 8; ++i) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 1;
      try {
        Ledger l(path);
        l.record(entry("dd", 0.3), Budget{1.0, 1e-5}, basic_composition);
        code = 0;
      } catch (const PrivacyError&) {
        code = 2;
      } catch (...) {
        code = 3;
      }
      _exit(code);
    }
    children.push_back(pid);
  }
  int ok = 0, refused = 0;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    ok += WEXITSTATUS(status) == 0;
    refused += WEXITSTATUS(status) == 2;
  }
  EXPECT_EQ(ok, 3);
  EXPECT_EQ(refused, 5);
  EXPECT_EQ(Ledger(path).releases("dd").size(), 3u);
}

}  // namespace
}  // namespace gpdp::release
