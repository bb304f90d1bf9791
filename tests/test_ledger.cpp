// The privacy-budget ledger: datasets by name and record fingerprint, composition of replayable
// privacy records under a Rényi filter, refusal without side effects, overlap refusal and its
// override, the key beside the ledger, migration of schema-1 ledgers, durability across processes,
// serialised concurrent spending, corrupted files; release states (record before the draw: reserve,
// dispatched, published, abandoned), their reconciliation after a crash, schema 2 -> 3.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "gpdp/error.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/reconcile.hpp"
#include "support/paths.hpp"

namespace gpdp::release {
namespace {

// A Gaussian-mechanism event (user V_n = 0, Δ_n = μσ): ε_α = α μ²/2 per draw.
privacy::GpMechanism gaussian(double mu) {
  privacy::GpMechanism m;
  m.kernel = Kernel::exponential(1.0);
  m.n = 10;
  m.r = 1.0;
  m.sigma = 1.0;
  m.lemma = privacy::SensitivityLemma::User;
  m.user_Vn = 0.0;
  m.user_Delta_n = mu;
  return m;
}

nlohmann::json record_of(double mu) {
  privacy::Accountant a;
  a.add(gaussian(mu), 1);
  return a.record();
}

LedgerEntry entry(const std::string& dataset, double mu) {
  LedgerEntry e;
  e.dataset = dataset;
  e.record = record_of(mu);
  e.epsilon = 0.5;
  e.delta = 1e-5;
  e.conversion = "cks";
  e.parameters = {{"r", 2.0}};
  e.out_dir = "/tmp/x";
  return e;
}

// Records (x, y) = (i·step + offset, i); `order` reverses them.
DatasetIdentity identity(Ledger& ledger, const std::string& name, int first, int count,
                         bool reversed = false) {
  Eigen::MatrixXd X(count, 1);
  Eigen::VectorXd y(count);
  for (int i = 0; i < count; ++i) {
    const int k = reversed ? first + count - 1 - i : first + i;
    X(i, 0) = 0.01 * k;
    y(i) = k;
  }
  return {name, fingerprint(X, y, ledger.key()), false, {}, {}};
}

// Budget ε = 2 at δ = 1e-5, filter at α = 8: each μ = 0.25 draw spends 8·0.0625/2 = 0.25 of the
// RDP budget B_8 = 2 − c_CKS(8, 1e-5) ≈ 0.786: three fit, a fourth does not.
const privacy::Budget kBudget{2.0, 1e-5};
const std::vector<double> kOrders{8.0};

TEST(Ledger, ComposesUnderTheFilterAndRefusesWithoutWriting) {
  test::TempDir dir;
  const std::string path = dir.file("l.sqlite");
  Ledger ledger(path);
  const auto id = identity(ledger, "wells", 0, 20);
  const auto d1 =
      ledger.record(entry("wells", 0.25), id, kBudget, privacy::Conversion::CKS, kOrders);
  ASSERT_TRUE(d1.filter.has_value());
  EXPECT_EQ(d1.filter->orders(), kOrders);
  EXPECT_DOUBLE_EQ(d1.before.rdp, 0.0);
  EXPECT_NEAR(d1.after.rdp, 0.25, 1e-12);
  ledger.record(entry("wells", 0.25), id, std::nullopt);  // the stored budget applies
  const auto d3 = ledger.record(entry("wells", 0.25), id, std::nullopt);
  EXPECT_NEAR(d3.after.rdp, 0.75, 1e-12);
  EXPECT_EQ(d3.earlier_releases, 2);
  EXPECT_THROW(ledger.record(entry("wells", 0.25), id, std::nullopt), PrivacyError);
  EXPECT_EQ(ledger.dataset("wells")->releases.size(), 3u);
  // A budget, once fixed, cannot be raised, nor its order moved.
  EXPECT_THROW(ledger.record(entry("wells", 0.01), id, privacy::Budget{10.0, 1e-5}), PrivacyError);
  EXPECT_THROW(ledger.record(entry("wells", 0.01), id, kBudget, privacy::Conversion::CKS, {4.0}),
               PrivacyError);
  // Another dataset (other records) has its own (absent) budget.
  ledger.record(entry("roads", 5.0), identity(ledger, "roads", 100, 10), std::nullopt);
  EXPECT_FALSE(ledger.dataset("roads")->filter.has_value());
  // Rows round-trip, including the replayable privacy record.
  const auto rows = Ledger::open_existing(path).dataset("wells")->releases;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].record, record_of(0.25));
  EXPECT_EQ(rows[1].parameters["r"], 2.0);
  EXPECT_EQ(rows[0].identity["distinct_records"], 20);
  EXPECT_LT(rows[0].id, rows[1].id);
  EXPECT_EQ(Ledger::open_existing(path).datasets().size(), 2u);
}

// The same records in another order are the same dataset; overlapping records under another
// name are refused (naming the earlier dataset) unless overridden, and the override is recorded.
TEST(Ledger, IdentityIsByRecordsAndOverlapIsRefused) {
  test::TempDir dir;
  Ledger ledger(dir.file("l.sqlite"));
  const auto a = identity(ledger, "survey-a", 0, 30);
  const auto a_reversed = identity(ledger, "survey-a", 0, 30, true);
  EXPECT_EQ(a.fingerprint.hashes, a_reversed.fingerprint.hashes);
  ledger.record(entry("survey-a", 0.25), a, kBudget, privacy::Conversion::CKS, kOrders);
  ledger.record(entry("survey-a", 0.25), a_reversed, std::nullopt);
  // 10 of the 20 records of "survey-b" were released as "survey-a".
  auto b = identity(ledger, "survey-b", 20, 20);
  try {
    ledger.record(entry("survey-b", 0.25), b, std::nullopt);
    FAIL() << "overlap not refused";
  } catch (const PrivacyError& e) {
    EXPECT_NE(std::string(e.what()).find("'survey-a' (10 shared records"), std::string::npos)
        << e.what();
    EXPECT_EQ(e.parameters(), std::vector<std::string>{"new_dataset_despite_overlap"});
  }
  EXPECT_FALSE(ledger.dataset("survey-b").has_value());
  b.new_dataset_despite_overlap = true;
  const auto d = ledger.record(entry("survey-b", 0.25), b, std::nullopt);
  ASSERT_EQ(d.overridden.size(), 1u);
  EXPECT_EQ(d.overridden[0].dataset, "survey-a");
  EXPECT_EQ(d.overridden[0].shared, 10);
  const auto row = ledger.dataset("survey-b")->releases.at(0);
  EXPECT_EQ(row.identity["overlap_override"][0]["shared"], 10);
  // A dataset's fingerprint is the union of everything released under its name.
  ledger.record(entry("survey-a", 0.01), identity(ledger, "survey-a", 100, 5), std::nullopt);
  EXPECT_EQ(ledger.dataset("survey-a")->records, 35);
  EXPECT_THROW(check_dataset_name("a b"), ParameterError);
  EXPECT_THROW(check_dataset_name(""), ParameterError);
}

// The key lives beside the ledger, never in it; the ledger refuses another key.
TEST(Ledger, KeyIsBesideTheLedgerAndChecked) {
  test::TempDir dir;
  const std::string path = dir.file("l.sqlite");
  std::string key;
  {
    Ledger ledger(path);
    ledger.record(entry("a", 0.1), identity(ledger, "a", 0, 5), std::nullopt);
    key = test::read_text(path + ".key");
  }
  EXPECT_EQ(key.size(), 32u);
  EXPECT_EQ(test::read_text(path).find(key), std::string::npos);
  EXPECT_EQ(std::filesystem::status(path + ".key").permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  std::string other = key;
  other[0] = static_cast<char>(other[0] ^ 1);
  test::write_text(dir.file("other.key"), other);
  EXPECT_THROW(Ledger(path, dir.file("other.key")).key(), InputError);
  std::filesystem::remove(path + ".key");
  EXPECT_THROW(Ledger(path).key(), InputError);  // never silently re-keyed
}

// Record before the draw: a reserved release counts against the budget at once, whatever becomes
// of it; states move only forward; decision() gives back what reserve() decided.
TEST(Ledger, ReservedReleasesCountAndMoveOnlyForward) {
  test::TempDir dir;
  Ledger ledger(dir.file("l.sqlite"));
  const auto id = identity(ledger, "wells", 0, 20);
  const auto d1 =
      ledger.reserve(entry("wells", 0.25), id, kBudget, privacy::Conversion::CKS, kOrders);
  const auto d2 = ledger.reserve(entry("wells", 0.25), id, std::nullopt);
  const auto d3 = ledger.reserve(entry("wells", 0.25), id, std::nullopt);
  EXPECT_NEAR(d3.after.rdp, 0.75, 1e-12);
  // Three reservations fill the budget: a fourth is refused, reserved or recorded.
  EXPECT_THROW(ledger.reserve(entry("wells", 0.25), id, std::nullopt), PrivacyError);
  EXPECT_THROW(ledger.record(entry("wells", 0.25), id, std::nullopt), PrivacyError);
  ASSERT_EQ(ledger.unsettled().size(), 3u);
  EXPECT_EQ(ledger.unsettled()[0].state, ReleaseState::Reserved);

  ledger.mark_dispatched({d1.id, d2.id});
  EXPECT_THROW(ledger.mark_dispatched({d1.id}), InputError);  // already dispatched
  ledger.mark_published(d1.id);
  EXPECT_THROW(ledger.mark_published(d1.id), InputError);
  EXPECT_THROW(ledger.mark_abandoned(d1.id, "late"), InputError);  // published stays published
  ledger.mark_abandoned(d2.id, "the draw failed");
  ledger.mark_published(d3.id);  // reserved -> published directly is allowed
  EXPECT_TRUE(ledger.unsettled().empty());
  EXPECT_THROW(ledger.mark_published(9999), InputError);

  const auto rows = ledger.dataset("wells")->releases;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].state, ReleaseState::Published);
  EXPECT_EQ(rows[1].state, ReleaseState::Abandoned);
  EXPECT_EQ(rows[1].state_note, "the draw failed");
  // The abandoned release stays spent: still no room for a fourth.
  EXPECT_THROW(ledger.reserve(entry("wells", 0.25), id, std::nullopt), PrivacyError);
  EXPECT_NEAR(ledger.dataset("wells")->spent->rdp, 0.75, 1e-12);

  const auto again = ledger.decision(d2.id);
  EXPECT_EQ(again.id, d2.id);
  EXPECT_EQ(again.earlier_releases, d2.earlier_releases);
  EXPECT_DOUBLE_EQ(again.before.rdp, d2.before.rdp);
  EXPECT_DOUBLE_EQ(again.after.epsilon, d2.after.epsilon);
  EXPECT_EQ(ledger.releases_into("/tmp/x").size(), 3u);
  EXPECT_THROW(parse_release_state("gone"), InputError);
}

void write_certificate(const std::string& dir, long long id, const std::string& uid) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/certificate.json")
      << nlohmann::json{{"release_uid", uid}, {"ledger", {{"release_id", id}}}}.dump();
}

// After a coordinator's crash: a release whose folder holds its certificate is published; a
// dispatched one without is abandoned (its draw may exist); a reserved one is kept for the resumed
// batch only if the batch claims its folder.
TEST(Ledger, ReconcileSettlesWhatACrashLeft) {
  test::TempDir dir;
  Ledger ledger(dir.file("l.sqlite"));
  const auto id = identity(ledger, "wells", 0, 20);
  const auto reserve_into = [&](const std::string& out) {
    LedgerEntry e = entry("wells", 0.01);
    e.out_dir = dir.file(out);
    e.parameters["release_uid"] = "uid-" + out;
    return ledger.reserve(e, id, std::nullopt).id;
  };
  const auto in_place = reserve_into("a");
  const auto drawn = reserve_into("b");
  const auto claimed = reserve_into("c");
  reserve_into("d");  // reserved, not claimed
  const auto foreign = reserve_into("e");
  ledger.mark_dispatched({in_place, drawn, foreign});
  write_certificate(dir.file("a"), in_place, "uid-a");
  write_certificate(dir.file("e"), foreign, "uid-other");  // another release's folder
  const auto settled = reconcile(ledger, {dir.file("c")});
  ASSERT_EQ(settled.size(), 5u);
  const auto state = [&](const std::string& out) {
    return ledger.releases_into(dir.file(out)).front().state;
  };
  EXPECT_EQ(state("a"), ReleaseState::Published);
  EXPECT_EQ(state("b"), ReleaseState::Abandoned);
  EXPECT_EQ(state("c"), ReleaseState::Reserved);
  EXPECT_EQ(state("d"), ReleaseState::Abandoned);
  EXPECT_EQ(state("e"), ReleaseState::Abandoned);
  EXPECT_NE(ledger.releases_into(dir.file("b")).front().state_note.find("never drawn again"),
            std::string::npos);
  EXPECT_EQ(settled[2].now, ReleaseState::Reserved);
  ASSERT_EQ(ledger.unsettled().size(), 1u);
  EXPECT_EQ(ledger.unsettled()[0].id, claimed);
}

// A schema-2 ledger (no release states) is upgraded in place: its releases are published.
TEST(Ledger, UpgradesSchemaTwoInPlace) {
  test::TempDir dir;
  const std::string path = dir.file("v2.sqlite");
  {
    Ledger ledger(path);
    ledger.record(entry("wells", 0.25), identity(ledger, "wells", 0, 20), kBudget,
                  privacy::Conversion::CKS, kOrders);
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  // Back to schema 2 exactly: the releases table without the state columns.
  const char* downgrade =
      "ALTER TABLE releases DROP COLUMN state; ALTER TABLE releases DROP COLUMN state_note;"
      "DROP TABLE kept_paths; ALTER TABLE datasets DROP COLUMN table_fingerprint;"
      "ALTER TABLE datasets DROP COLUMN covariate_fingerprint; PRAGMA user_version=2;";
  ASSERT_EQ(sqlite3_exec(db, downgrade, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  Ledger ledger(path);
  const auto rows = ledger.dataset("wells")->releases;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].state, ReleaseState::Published);
  EXPECT_TRUE(ledger.unsettled().empty());
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(stmt, 0), 5);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
}

// A kept path has one history: the ledger accepts the file of its current generation only (or the
// pending one of a save a crash interrupted), refuses an older one (a restored backup) and one it
// never saw (answered elsewhere), and a seeded save makes the path non-private for good.
TEST(Ledger, KeptPathHasOneHistory) {
  test::TempDir dir;
  Ledger ledger(dir.file("l.sqlite"));
  LedgerEntry e = entry("wells", 0.25);
  e.path_id = "0123456789abcdef0123456789abcdef";
  const PathGeneration g0{36, "aa"}, g1{40, "bb"}, g2{41, "cc"}, other{40, "dd"};
  e.path_start = g0;
  const auto d = ledger.record(e, identity(ledger, "wells", 0, 20), std::nullopt);
  const auto expect_refused = [&](const PathGeneration& g, const std::string& why) {
    try {
      ledger.open_path(e.path_id, g, true, "p.gpdp");
      FAIL() << "generation " << g.answered << " not refused";
    } catch (const PrivacyError& err) {
      EXPECT_NE(std::string(err.what()).find(why), std::string::npos) << err.what();
    }
  };
  EXPECT_EQ(ledger.open_path(e.path_id, g0, true, "p.gpdp").current, g0);
  expect_refused(g1, "written without the ledger");
  ledger.begin_path_save(e.path_id, g0, g1, true);
  // The file was replaced, then the process died before end_path_save: the file is g1.
  const PathHistory h1 = ledger.open_path(e.path_id, g1, true, "p.gpdp");
  EXPECT_EQ(h1.current, g1);
  EXPECT_FALSE(h1.pending.has_value());
  expect_refused(g0, "BEHIND");      // the copy taken before: a restored backup
  expect_refused(other, "without");  // same count, other answers: a fork
  EXPECT_THROW(ledger.begin_path_save(e.path_id, g0, g2, true), PrivacyError);  // stale writer
  // A save that never reached the file: the old file stays current, the pending one is dropped.
  ledger.begin_path_save(e.path_id, g1, g2, true);
  EXPECT_EQ(ledger.open_path(e.path_id, g1, true, "p.gpdp").current, g1);
  expect_refused(g2, "without");
  // Seeded answers: not private, for ever.
  ledger.begin_path_save(e.path_id, g1, g2, false);
  ledger.end_path_save(e.path_id, g2);
  EXPECT_FALSE(ledger.path_history(e.path_id)->is_private);
  EXPECT_FALSE(ledger.open_path(e.path_id, g2, true, "p.gpdp").is_private);
  // A path the ledger does not know, and one whose release failed, answer nothing.
  expect_refused({1, "x"}, "");
  EXPECT_THROW(ledger.open_path("ffffffffffffffffffffffffffffffff", g2, true, "q"), PrivacyError);
  ledger.mark_failed(d.id, "disk full");
  expect_refused(g2, "failed");
}

// The file's rows and the covariates alone identify a dataset too: the same sites with another
// response (other units), or the same rows read with other columns, are refused under a new name;
// jitter below a quarter of the covariates' rounding step still matches. Schema 4 -> 5 keeps the
// datasets recorded before, with their records only.
TEST(Ledger, RowsAndCovariatesIdentifyADatasetToo) {
  test::TempDir dir;
  const std::string path = dir.file("l.sqlite");
  {
    Ledger ledger(path);
    ledger.record(entry("before", 0.25), identity(ledger, "before", 500, 5), std::nullopt);
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "ALTER TABLE datasets DROP COLUMN table_fingerprint; ALTER TABLE datasets "
                         "DROP COLUMN covariate_fingerprint; PRAGMA user_version=4;",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  Ledger ledger(path);
  Eigen::MatrixXd X(20, 2);
  Eigen::VectorXd y(20);
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < 20; ++i) {
    X.row(i) << 178000.0 + 37.0 * i, 330000.0 + 11.0 * i;
    y(i) = 100 + i;
    rows.push_back({X(i, 0), X(i, 1), y(i), 7.5});  // an extra column
  }
  const auto full = [&](const std::string& name, const Eigen::MatrixXd& x,
                        const Eigen::VectorXd& response,
                        const std::vector<std::vector<double>>& table) {
    const LedgerKey& key = ledger.key();
    return DatasetIdentity{name, fingerprint(x, response, key), false,
                           table_fingerprint(table, key), covariate_fingerprint(x, key)};
  };
  ledger.record(entry("zinc", 0.25), full("zinc", X, y, rows), std::nullopt);
  const auto refused = [&](const DatasetIdentity& id, const std::string& why) {
    try {
      ledger.check(entry(id.name, 0.25), id, std::nullopt);
      FAIL() << id.name << " not refused";
    } catch (const PrivacyError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  // Other units: no record in common, the same sites.
  refused(full("ug", X, 1000 * y, {}), "20 records at the same covariates");
  // Other columns of the same rows (swapped axes): the rows match, and so do the sites.
  Eigen::MatrixXd swapped = X.rowwise().reverse();
  refused(full("swapped", swapped, y, rows), "20 rows of the same file");
  // Jitter of 1e-9: the same sites.
  Eigen::MatrixXd jittered = X.array() + 1e-9;
  refused(full("jittered", jittered, y, {}), "20 records at the same covariates");
  // Other sites entirely: admitted.
  Eigen::MatrixXd elsewhere = X.array() + 0.5;
  EXPECT_NO_THROW(
      ledger.check(entry("elsewhere", 0.25), full("elsewhere", elsewhere, y, {}), std::nullopt));
  // The dataset recorded before schema 5 is matched by its records alone.
  EXPECT_NO_THROW(ledger.check(entry("x", 0.25), identity(ledger, "x", 0, 5), std::nullopt));
  refused(identity(ledger, "y", 500, 5), "5 shared records");
}

// Schema 3 -> 4: kept-path histories. A path released before has none until first opened; then the
// file it was opened with starts its history.
TEST(Ledger, UpgradesSchemaThreeAndStartsHistoriesWhenPathsAreOpened) {
  test::TempDir dir;
  const std::string path = dir.file("v3.sqlite");
  const std::string id = "00000000000000000000000000000001";
  {
    Ledger ledger(path);
    LedgerEntry e = entry("wells", 0.25);
    e.path_id = id;
    ledger.record(e, identity(ledger, "wells", 0, 20), std::nullopt);
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "DROP TABLE kept_paths; ALTER TABLE datasets DROP COLUMN "
                         "table_fingerprint; ALTER TABLE datasets DROP COLUMN "
                         "covariate_fingerprint; PRAGMA user_version=3;",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  Ledger ledger(path);
  EXPECT_FALSE(ledger.path_history(id).has_value());
  const PathGeneration first{50, "f1"};
  EXPECT_EQ(ledger.open_path(id, first, true, "p.gpdp").current, first);
  EXPECT_THROW(ledger.open_path(id, {49, "f0"}, true, "old.gpdp"), PrivacyError);
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(stmt, 0), 5);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
}

// A schema-1 ledger (budget and releases keyed by a file's SHA-256) is refused with the command
// that migrates it; migrate_legacy assigns its rows to a named dataset with a filter.
TEST(Ledger, MigratesSchemaOneLedgers) {
  test::TempDir dir;
  const std::string path = dir.file("old.sqlite");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  privacy::Event e{gaussian(0.25), 1};
  const std::string sql = fmt::format(
      "PRAGMA application_id={}; PRAGMA user_version=1;"
      "CREATE TABLE budgets(dataset_sha256 TEXT PRIMARY KEY, epsilon REAL NOT NULL, delta REAL "
      "NOT NULL, created TEXT NOT NULL);"
      "CREATE TABLE releases(id INTEGER PRIMARY KEY AUTOINCREMENT, dataset_sha256 TEXT NOT NULL, "
      "created TEXT NOT NULL, mechanism TEXT NOT NULL, epsilon REAL NOT NULL, delta REAL NOT "
      "NULL, conversion TEXT NOT NULL, parameters TEXT NOT NULL, out_dir TEXT NOT NULL, path_id "
      "TEXT NOT NULL);"
      "INSERT INTO budgets VALUES('abc', 5.0, 1e-5, '2024-01-01T00:00:00Z');"
      "INSERT INTO releases(dataset_sha256, created, mechanism, epsilon, delta, conversion, "
      "parameters, out_dir, path_id) VALUES('abc', '2024-01-01T00:00:00Z', '{}', 0.5, 1e-5, "
      "'cks', '{{}}', '/tmp/o', '');",
      0x47504450, privacy::to_json(e).dump());
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  try {
    Ledger l(path);
    FAIL() << "schema 1 not refused";
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("gpdp ledger migrate"), std::string::npos);
  }
  auto ledger = Ledger::open_for_migration(path);
  ASSERT_EQ(ledger.legacy().size(), 1u);
  EXPECT_EQ(ledger.legacy()[0].sha256, "abc");
  EXPECT_THROW(Ledger{path}, InputError);  // still rows to migrate
  const auto d = ledger.migrate_legacy("abc", identity(ledger, "wells", 0, 20));
  EXPECT_EQ(d.releases.size(), 1u);
  ASSERT_TRUE(d.filter.has_value());
  EXPECT_EQ(d.filter->budget().epsilon, 5.0);
  EXPECT_TRUE(ledger.legacy().empty());
  // Now an ordinary ledger: the migrated release composes with the next ones.
  Ledger now(path);
  const auto id = identity(now, "wells", 0, 20, true);
  const auto next = now.record(entry("wells", 0.25), id, std::nullopt);
  EXPECT_EQ(next.earlier_releases, 1);
  EXPECT_GT(next.after.rdp, next.before.rdp);
  EXPECT_GT(next.before.rdp, 0.0);
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
    const auto id = identity(l, "cc", 0, 50);
    for (int i = 0; i < 50; ++i) l.record(entry("cc", 0.01), id, std::nullopt);
  }
  std::string bytes = test::read_text(dir.file("l.sqlite"));
  for (std::size_t i = 4096; i < bytes.size(); i += 7) bytes[i] = static_cast<char>(0xA5);
  test::write_text(dir.file("l.sqlite"), bytes);
  EXPECT_THROW(
      {
        Ledger l(dir.file("l.sqlite"));
        l.datasets();
      },
      InputError);
}

// Eight processes race to spend from a budget that holds three releases: exactly three succeed.
TEST(Ledger, ConcurrentProcessesNeverOverspend) {
  test::TempDir dir;
  const std::string path = dir.file("l.sqlite");
  {
    Ledger init(path);
    init.key();
  }
  std::vector<pid_t> children;
  for (int i = 0; i < 8; ++i) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 1;
      try {
        Ledger l(path);
        l.record(entry("dd", 0.25), identity(l, "dd", 0, 10), kBudget, privacy::Conversion::CKS,
                 kOrders);
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
  EXPECT_EQ(Ledger(path).dataset("dd")->releases.size(), 3u);
}

}  // namespace
}  // namespace gpdp::release
