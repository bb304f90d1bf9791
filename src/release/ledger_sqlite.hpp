#pragma once
// The ledger's RAII layer over SQLite's C API (internal to src/release): a connection opened the
// way the ledger's guarantees need (ledger.hpp: serialised, a busy timeout so that concurrent
// writers wait, rollback journal with synchronous=FULL so that a COMMIT is on disk when it
// returns), prepared statements, and one-transaction bodies. Every failure is an InputError naming
// the ledger's path. The ledger's SQL lives in ledger_schema.cpp and ledger_tables.cpp.
#include <sqlite3.h>

#include <memory>
#include <string>

namespace gpdp::release::sqlite {

class Connection {
 public:
  // Opens `path` read-write, creating it when `create` (InputError if it cannot be opened).
  Connection(const std::string& path, bool create);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const std::string& path() const { return path_; }
  sqlite3* handle() const { return handle_.get(); }
  // Runs one or more statements without results.
  void exec(const std::string& sql) const;
  // The first column of the first row of `sql` (0 when it returns no row).
  long long integer(const char* sql) const;
  bool has_table(const char* name) const;
  long long last_insert_rowid() const;

  // Runs `body` in one BEGIN IMMEDIATE transaction (the write lock taken at once); commits when
  // `commit` is true, else rolls back. Any exception rolls back.
  template <class Body>
  auto transaction(bool commit, Body body) const {
    exec("BEGIN IMMEDIATE");
    try {
      auto result = body();
      exec(commit ? "COMMIT" : "ROLLBACK");
      return result;
    } catch (...) {
      rollback();
      throw;
    }
  }

 private:
  struct Close {
    void operator()(sqlite3* db) const { sqlite3_close(db); }
  };
  void rollback() const noexcept;
  std::string path_;
  std::unique_ptr<sqlite3, Close> handle_;
};

// A prepared statement of `db`; bind parameters are numbered from 1, result columns from 0.
class Statement {
 public:
  Statement(const Connection& db, const char* sql);
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int i, const std::string& v);
  void bind_blob(int i, const std::string& v);
  void bind(int i, double v);
  void bind(int i, long long v);
  // Steps once: true with a row to read, false when done.
  bool step();
  std::string text(int col) const;
  std::string blob(int col) const;
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  long long integer(int col) const { return sqlite3_column_int64(stmt_, col); }

 private:
  [[noreturn]] void fail(const char* what) const;
  const Connection& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace gpdp::release::sqlite
