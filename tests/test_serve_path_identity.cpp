// A kept path has one identity and one history, whatever its file is called (issue #29, hole 1):
// a symlink, a hard link, a copy or a second config entry cannot answer while the path is open
// (the lock is the path id's, in the ledger's folder); a restored backup or a copy answered
// without the ledger is refused (the ledger holds the path's generation); saving through a symlink
// keeps the link. Seeded answers (hole 4): a private release's path refuses them, and a path that
// answered with a seed is marked NOT PRIVATE in the file and the ledger, also when served later.
// Each of these forks answered the same new point with two independent draws before.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "gpdp/io/csv.hpp"
#include "gpdp/release/ledger.hpp"
#include "support/paths.hpp"
#include "support/serve/release_fixture.hpp"
#include "support/serve/server_process.hpp"

namespace gpdp::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Kept {
  TempDir dir;
  std::string data = dir.file("d.csv");
  ServedRelease a;
  Kept(const std::string& flags = "") {
    write_text(data, serve_test_data(30, 5));
    a = make_served_release(dir, "a", data, "--grid2d 0:1:6,0:1:6 " + flags);
  }
  // `gpdp query FILE` at one point; the result and, when it succeeded, the value.
  CommandResult query(const std::string& file, double x, double y, const std::string& extra = "") {
    static int counter = 0;
    const std::string points = dir.file(fmt::format("q{}.csv", counter));
    const std::string out = dir.file(fmt::format("v{}.csv", counter++));
    write_text(points, fmt::format("x1,x2\n{},{}\n", x, y));
    return run_cli(fmt::format("query {} --data {} --points {} --out {} --json {}", file, data,
                               points, out, extra));
  }
  double value(const CommandResult& r) const {
    return io::read_csv(json::parse(r.out)["out"].get<std::string>()).numeric({"draw_1"})(0, 0);
  }
};

void expect_refused(const CommandResult& r, const std::string& why) {
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
}

TEST(ServePathIdentity, LinksCopiesAndSecondEntriesCannotAnswerWhileThePathIsOpen) {
  Kept k;
  fs::create_symlink(k.a.path, k.dir.file("link.gpdp"));
  fs::create_hard_link(k.a.path, k.dir.file("hard.gpdp"));
  fs::copy_file(k.a.path, k.dir.file("copy.gpdp"));
  ServerProcess server(
      write_serve_config(k.dir, {release_entry(k.a)}, R"({"rate_per_second": 0})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  for (const char* name : {"link.gpdp", "hard.gpdp", "copy.gpdp"})
    expect_refused(k.query(k.dir.file(name), 0.123, 0.456), "is open elsewhere");
  // Two entries of one config naming the same path (here through the link) refuse to start.
  ServedRelease twin = k.a;
  twin.id = "twin";
  twin.path = k.dir.file("link.gpdp");
  server.stop(SIGTERM);
  ServerProcess both(
      write_serve_config(k.dir, {release_entry(k.a), release_entry(twin)}, "{}", "both.json"));
  EXPECT_FALSE(both.running());
  EXPECT_EQ(both.exit_code(), 2);
  EXPECT_NE(both.stderr_text().find("is open elsewhere"), std::string::npos) << both.stderr_text();
}

TEST(ServePathIdentity, RestoredBackupsAndCopiesAnsweredElsewhereAreRefused) {
  Kept k;
  fs::copy_file(k.a.path, k.dir.file("backup.gpdp"));
  for (const char* f : {"l.sqlite", "l.sqlite.key"})  // with a copy of the ledger beside it
    fs::copy_file(k.dir.file(f), k.dir.file(std::string("other-") + f));
  fs::create_hard_link(k.a.path, k.dir.file("hard.gpdp"));
  const auto first = k.query(k.a.path, 0.123, 0.456);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  // The backup and the hard link still hold the path before that answer: both are behind.
  expect_refused(k.query(k.dir.file("hard.gpdp"), 0.123, 0.456), "is BEHIND");
  fs::copy_file(k.dir.file("backup.gpdp"), k.a.path, fs::copy_options::overwrite_existing);
  const auto restored = k.query(k.a.path, 0.123, 0.456);
  expect_refused(restored, "is BEHIND");
  EXPECT_NE(restored.err.find("restored backup"), std::string::npos) << restored.err;
  // A copy answered against a copy of the ledger has a history the ledger never saw.
  fs::copy_file(k.dir.file("backup.gpdp"), k.a.path, fs::copy_options::overwrite_existing);
  const auto elsewhere = k.query(k.a.path, 0.9, 0.1, "--ledger " + k.dir.file("other-l.sqlite"));
  ASSERT_EQ(elsewhere.exit_code, 0) << elsewhere.err;
  expect_refused(k.query(k.a.path, 0.123, 0.456), "written without the ledger");
}

TEST(ServePathIdentity, SavingThroughASymlinkKeepsTheLink) {
  Kept k;
  const std::string link = k.dir.file("link.gpdp");
  fs::create_symlink(k.a.path, link);
  const auto through_link = k.query(link, 0.321, 0.654);
  ASSERT_EQ(through_link.exit_code, 0) << through_link.err;
  EXPECT_TRUE(fs::is_symlink(link));
  // The target holds the answer: asked again through it, the same value.
  const auto again = k.query(k.a.path, 0.321, 0.654);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(k.value(again), k.value(through_link));
}

TEST(ServePathIdentity, PrivatePathRefusesSeededAnswers) {
  Kept k;
  const std::string before = read_text(k.a.path);
  expect_refused(k.query(k.a.path, 0.5, 0.5, "--insecure-seed 42"), "seeded generator");
  EXPECT_EQ(read_text(k.a.path), before);
  ServerProcess seeded(write_serve_config(k.dir, {release_entry(k.a, R"("insecure_seed": 42)")}));
  EXPECT_FALSE(seeded.running());
  EXPECT_NE(seeded.stderr_text().find("seeded generator"), std::string::npos)
      << seeded.stderr_text();
}

TEST(ServePathIdentity, SeededAnswersMarkThePathNotPrivateForEver) {
  Kept k("--insecure-seed 7");
  const auto r = k.query(k.a.path, 0.5, 0.5, "--insecure-seed 42");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(json::parse(r.out)["private"].get<bool>());
  EXPECT_NE(read_text(k.a.path).find(R"("private":false)"), std::string::npos);
  const std::string id =
      json::parse(read_text(k.a.out + "/certificate.json"))["kept_path_id"].get<std::string>();
  const auto history = release::Ledger::open_existing(k.dir.file("l.sqlite")).path_history(id);
  ASSERT_TRUE(history.has_value());
  EXPECT_FALSE(history->is_private);
  // Served later by a server without a seed: still not private, in the list and in answers.
  ServerProcess server(
      write_serve_config(k.dir, {release_entry(k.a)}, R"({"rate_per_second": 0})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  EXPECT_FALSE(json::parse(server.get("/v1/releases").body)[0]["private"].get<bool>());
  const auto answer = server.post("/v1/releases/a/query", R"({"points": [[0.5, 0.5]]})");
  ASSERT_EQ(answer.status, 200) << answer.body;
  EXPECT_FALSE(json::parse(answer.body)["private"].get<bool>());
}

}  // namespace
}  // namespace gpdp::test
