#include "ledger_sqlite.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"

namespace gpdp::release::sqlite {

namespace {

constexpr int kBusyTimeoutMs = 60000;

}  // namespace

Connection::Connection(const std::string& path, bool create) : path_(path) {
  const int flags =
      SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
  sqlite3* opened = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &opened, flags, nullptr);
  handle_.reset(opened);
  if (rc != SQLITE_OK) {
    const std::string msg = opened ? sqlite3_errmsg(opened) : "out of memory";
    throw InputError(fmt::format("ledger {}: cannot open ({})", path, msg));
  }
  sqlite3_busy_timeout(opened, kBusyTimeoutMs);
  // Rollback journal + synchronous=FULL: a COMMIT is on disk when sqlite3_step returns.
  exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL;");
}

void Connection::exec(const std::string& sql) const {
  char* err = nullptr;
  if (sqlite3_exec(handle(), sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : sqlite3_errmsg(handle());
    sqlite3_free(err);
    throw InputError(fmt::format("ledger {}: {} (is it a gpdp ledger?)", path_, msg));
  }
}

long long Connection::integer(const char* sql) const {
  Statement s(*this, sql);
  return s.step() ? s.integer(0) : 0;
}

bool Connection::has_table(const char* name) const {
  Statement s(*this, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?1");
  s.bind(1, std::string(name));
  return s.step() && s.integer(0) > 0;
}

long long Connection::last_insert_rowid() const { return sqlite3_last_insert_rowid(handle()); }

void Connection::rollback() const noexcept {
  sqlite3_exec(handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

Statement::Statement(const Connection& db, const char* sql) : db_(db) {
  if (sqlite3_prepare_v2(db.handle(), sql, -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
}

void Statement::bind(int i, const std::string& v) {
  sqlite3_bind_text(stmt_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

void Statement::bind_blob(int i, const std::string& v) {
  sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

void Statement::bind(int i, double v) { sqlite3_bind_double(stmt_, i, v); }

void Statement::bind(int i, long long v) { sqlite3_bind_int64(stmt_, i, v); }

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail("step");
}

std::string Statement::text(int col) const {
  const auto* p = sqlite3_column_text(stmt_, col);
  return p ? reinterpret_cast<const char*>(p) : "";
}

std::string Statement::blob(int col) const {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))) : "";
}

void Statement::fail(const char* what) const {
  throw InputError(fmt::format("ledger {}: {} failed: {} (is it a gpdp ledger?)", db_.path(), what,
                               sqlite3_errmsg(db_.handle())));
}

}  // namespace gpdp::release::sqlite
