#include "gpdp/release/ledger.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cmath>
#include <ctime>
#include <filesystem>

#include "gpdp/error.hpp"

namespace gpdp::release {

namespace {

constexpr int kApplicationId = 0x47504450;  // "GPDP"
constexpr int kSchemaVersion = 1;
constexpr int kBusyTimeoutMs = 60000;

class Statement {
 public:
  Statement(sqlite3* db, const char* sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void bind(int i, double v) { sqlite3_bind_double(stmt_, i, v); }
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail("step");
    return false;
  }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  long long integer(int col) const { return sqlite3_column_int64(stmt_, col); }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw InputError(fmt::format("ledger {}: {} failed: {} (is it a gpdp ledger?)", path_, what,
                                 sqlite3_errmsg(db_)));
  }
  sqlite3* db_;
  std::string path_;
  sqlite3_stmt* stmt_ = nullptr;
};

nlohmann::json parse_json_column(const std::string& text, const std::string& path, long long id) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    throw InputError(fmt::format("ledger {}: release {} has a corrupted JSON field", path, id));
  }
}

}  // namespace

struct Ledger::Db {
  sqlite3* handle = nullptr;
  std::string path;

  void exec(const char* sql) const {
    char* err = nullptr;
    if (sqlite3_exec(handle, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string msg = err ? err : sqlite3_errmsg(handle);
      sqlite3_free(err);
      throw InputError(fmt::format("ledger {}: {} (is it a gpdp ledger?)", path, msg));
    }
  }
  long long pragma_int(const char* sql) const {
    Statement s(handle, sql, path);
    return s.step() ? s.integer(0) : 0;
  }
};

Ledger::Ledger(const std::string& path) : Ledger(path, true) {}

Ledger Ledger::open_existing(const std::string& path) { return Ledger(path, false); }

Ledger::Ledger(const std::string& path, bool create) : path_(path), db_(new Db) {
  db_->path = path;
  if (!create && !std::filesystem::exists(path)) {
    delete db_;
    throw InputError(fmt::format("ledger {}: no such file", path));
  }
  const int flags =
      SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db_->handle, flags, nullptr) != SQLITE_OK) {
    const std::string msg = db_->handle ? sqlite3_errmsg(db_->handle) : "out of memory";
    sqlite3_close(db_->handle);
    delete db_;
    throw InputError(fmt::format("ledger {}: cannot open ({})", path, msg));
  }
  try {
    sqlite3_busy_timeout(db_->handle, kBusyTimeoutMs);
    // Rollback journal + synchronous=FULL: a COMMIT is on disk when sqlite3_step returns.
    db_->exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL;");
    const long long quick = [&] {
      Statement s(db_->handle, "PRAGMA quick_check", path);
      return s.step() && s.text(0) == "ok" ? 1LL : 0LL;
    }();
    if (!quick) throw InputError(fmt::format("ledger {}: failed SQLite's integrity check", path));
    db_->exec("BEGIN IMMEDIATE");
    const long long app = db_->pragma_int("PRAGMA application_id");
    const long long tables = db_->pragma_int("SELECT count(*) FROM sqlite_master");
    if (app == 0 && tables == 0) {
      db_->exec(fmt::format("PRAGMA application_id={}; PRAGMA user_version={};", kApplicationId,
                            kSchemaVersion)
                    .c_str());
      db_->exec(
          "CREATE TABLE budgets(dataset_sha256 TEXT PRIMARY KEY, epsilon REAL NOT NULL, "
          "delta REAL NOT NULL, created TEXT NOT NULL);"
          "CREATE TABLE releases(id INTEGER PRIMARY KEY AUTOINCREMENT, dataset_sha256 TEXT NOT "
          "NULL, "
          "created TEXT NOT NULL, mechanism TEXT NOT NULL, epsilon REAL NOT NULL, delta REAL NOT "
          "NULL, conversion TEXT NOT NULL, parameters TEXT NOT NULL, out_dir TEXT NOT NULL, "
          "path_id TEXT NOT NULL);"
          "CREATE INDEX releases_by_dataset ON releases(dataset_sha256);");
    } else if (app != kApplicationId) {
      throw InputError(fmt::format("ledger {}: this SQLite file is not a gpdp ledger", path));
    } else if (db_->pragma_int("PRAGMA user_version") != kSchemaVersion) {
      throw InputError(fmt::format("ledger {}: unsupported ledger schema version", path));
    }
    db_->exec("COMMIT");
  } catch (...) {
    sqlite3_close(db_->handle);
    delete db_;
    throw;
  }
}

Ledger::~Ledger() {
  sqlite3_close(db_->handle);
  delete db_;
}

std::vector<std::string> Ledger::datasets() const {
  Statement s(db_->handle,
              "SELECT dataset_sha256 FROM releases UNION SELECT dataset_sha256 FROM budgets "
              "ORDER BY 1",
              path_);
  std::vector<std::string> out;
  while (s.step()) out.push_back(s.text(0));
  return out;
}

std::vector<LedgerEntry> Ledger::releases(const std::string& dataset_sha256) const {
  Statement s(db_->handle,
              "SELECT id, dataset_sha256, created, mechanism, epsilon, delta, conversion, "
              "parameters, out_dir, path_id FROM releases WHERE dataset_sha256 = ?1 ORDER BY id",
              path_);
  s.bind(1, dataset_sha256);
  std::vector<LedgerEntry> out;
  while (s.step()) {
    LedgerEntry e;
    e.id = s.integer(0);
    e.dataset_sha256 = s.text(1);
    e.created = s.text(2);
    e.mechanism = parse_json_column(s.text(3), path_, e.id);
    e.epsilon = s.real(4);
    e.delta = s.real(5);
    e.conversion = s.text(6);
    e.parameters = parse_json_column(s.text(7), path_, e.id);
    e.out_dir = s.text(8);
    e.path_id = s.text(9);
    out.push_back(std::move(e));
  }
  return out;
}

std::optional<Budget> Ledger::budget(const std::string& dataset_sha256) const {
  Statement s(db_->handle, "SELECT epsilon, delta FROM budgets WHERE dataset_sha256 = ?1", path_);
  s.bind(1, dataset_sha256);
  if (!s.step()) return std::nullopt;
  return Budget{s.real(0), s.real(1)};
}

LedgerDecision Ledger::record(LedgerEntry entry, const std::optional<Budget>& requested,
                              const Composer& compose) {
  return decide(entry, requested, compose, true);
}

LedgerDecision Ledger::check(const LedgerEntry& entry, const std::optional<Budget>& requested,
                             const Composer& compose) {
  return decide(entry, requested, compose, false);
}

LedgerDecision Ledger::decide(const LedgerEntry& entry, const std::optional<Budget>& requested,
                              const Composer& compose, bool insert) {
  if (requested) {
    require(std::isfinite(requested->epsilon) && requested->epsilon > 0,
            "--budget-epsilon must be positive");
    require(requested->delta > 0 && requested->delta < 1, "--budget-delta must lie in (0, 1)");
  }
  db_->exec("BEGIN IMMEDIATE");  // takes the write lock now: check-and-insert is serialised
  try {
    LedgerDecision decision;
    decision.budget = budget(entry.dataset_sha256);
    if (decision.budget && requested &&
        (decision.budget->epsilon != requested->epsilon ||
         decision.budget->delta != requested->delta)) {
      throw PrivacyError(fmt::format(
          "ledger {}: this dataset's budget is fixed at ε = {}, δ = {}; it cannot be changed to "
          "ε = {}, δ = {}",
          path_, decision.budget->epsilon, decision.budget->delta, requested->epsilon,
          requested->delta));
    }
    if (!decision.budget && requested) {
      Statement s(
          db_->handle,
          "INSERT INTO budgets(dataset_sha256, epsilon, delta, created) VALUES(?1,?2,?3,?4)",
          path_);
      s.bind(1, entry.dataset_sha256);
      s.bind(2, requested->epsilon);
      s.bind(3, requested->delta);
      s.bind(4, utc_timestamp());
      s.step();
      decision.budget = requested;
    }
    auto entries = releases(entry.dataset_sha256);
    if (decision.budget) {
      decision.epsilon_before = entries.empty() ? 0.0 : compose(entries, decision.budget->delta);
      entries.push_back(entry);
      decision.epsilon_after = compose(entries, decision.budget->delta);
      if (!(decision.epsilon_after <= decision.budget->epsilon)) {
        throw PrivacyError(fmt::format(
            "privacy budget exceeded: {} earlier release(s) of this dataset spent ε = {:.4g} and "
            "this one would bring the total to ε = {:.4g} > budget ε = {} (at δ = {}); nothing "
            "was released (ledger {})",
            entries.size() - 1, decision.epsilon_before, decision.epsilon_after,
            decision.budget->epsilon, decision.budget->delta, path_));
      }
    }
    if (!insert) {
      db_->exec("ROLLBACK");
      return decision;
    }
    Statement s(db_->handle,
                "INSERT INTO releases(dataset_sha256, created, mechanism, epsilon, delta, "
                "conversion, parameters, out_dir, path_id) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)",
                path_);
    s.bind(1, entry.dataset_sha256);
    s.bind(2, entry.created.empty() ? utc_timestamp() : entry.created);
    s.bind(3, entry.mechanism.dump());
    s.bind(4, entry.epsilon);
    s.bind(5, entry.delta);
    s.bind(6, entry.conversion);
    s.bind(7, entry.parameters.dump());
    s.bind(8, entry.out_dir);
    s.bind(9, entry.path_id);
    s.step();
    decision.id = sqlite3_last_insert_rowid(db_->handle);
    db_->exec("COMMIT");
    return decision;
  } catch (...) {
    sqlite3_exec(db_->handle, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::string default_ledger_path(const std::string& data_path) {
  return data_path + ".gpdp-ledger.sqlite";
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gpdp::release
