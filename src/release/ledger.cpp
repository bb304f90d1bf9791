#include "gpdp/release/ledger.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>

#include "gpdp/error.hpp"

namespace gpdp::release {

namespace {

using nlohmann::json;

constexpr int kApplicationId = 0x47504450;  // "GPDP"
constexpr int kSchemaVersion = 5;
constexpr int kRecordsOnlySchemaVersion = 4;  // before the file's and the covariates' fingerprints
constexpr int kPathlessSchemaVersion = 3;     // before kept-path histories
constexpr int kStatelessSchemaVersion = 2;    // before release states
constexpr int kLegacySchemaVersion = 1;
constexpr int kBusyTimeoutMs = 60000;

constexpr const char* kSchema =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE datasets(name TEXT PRIMARY KEY, created TEXT NOT NULL, records INTEGER NOT "
    "NULL, fingerprint BLOB NOT NULL, table_fingerprint BLOB NOT NULL DEFAULT x'', "
    "covariate_fingerprint BLOB NOT NULL DEFAULT x'');"
    "CREATE TABLE budgets(dataset TEXT PRIMARY KEY, filter TEXT NOT NULL, created TEXT NOT NULL);"
    "CREATE TABLE releases(id INTEGER PRIMARY KEY AUTOINCREMENT, dataset TEXT NOT NULL, created "
    "TEXT NOT NULL, record TEXT NOT NULL, epsilon REAL NOT NULL, delta REAL NOT NULL, conversion "
    "TEXT NOT NULL, parameters TEXT NOT NULL, out_dir TEXT NOT NULL, path_id TEXT NOT NULL, "
    "data_sha256 TEXT NOT NULL, identity TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'published', "
    "state_note TEXT NOT NULL DEFAULT '');"
    "CREATE INDEX releases_by_dataset ON releases(dataset);"
    "CREATE TABLE kept_paths(path_id TEXT PRIMARY KEY, release_id INTEGER NOT NULL, answered "
    "INTEGER NOT NULL, digest TEXT NOT NULL, pending_answered INTEGER, pending_digest TEXT, "
    "private INTEGER NOT NULL, updated TEXT NOT NULL);";

// Schema 2 -> 3: every release of a schema-2 ledger was recorded by record(), i.e. published.
constexpr const char* kAddStates =
    "ALTER TABLE releases ADD COLUMN state TEXT NOT NULL DEFAULT 'published';"
    "ALTER TABLE releases ADD COLUMN state_note TEXT NOT NULL DEFAULT '';";

// Schema 3 -> 4: the history of each kept path (its generation, one writer at a time). Paths of
// earlier releases get theirs when first opened (Ledger::open_path).
constexpr const char* kAddPathHistories =
    "CREATE TABLE kept_paths(path_id TEXT PRIMARY KEY, release_id INTEGER NOT NULL, answered "
    "INTEGER NOT NULL, digest TEXT NOT NULL, pending_answered INTEGER, pending_digest TEXT, "
    "private INTEGER NOT NULL, updated TEXT NOT NULL);";

// Schema 4 -> 5: the fingerprints of the files' rows and of the covariates alone. Datasets
// recorded before have none until their next release (docs/security.md).
constexpr const char* kAddWiderIdentity =
    "ALTER TABLE datasets ADD COLUMN table_fingerprint BLOB NOT NULL DEFAULT x'';"
    "ALTER TABLE datasets ADD COLUMN covariate_fingerprint BLOB NOT NULL DEFAULT x'';";

constexpr const char* kReleaseColumns =
    "id, dataset, created, record, epsilon, delta, conversion, parameters, out_dir, path_id, "
    "data_sha256, identity, state, state_note";

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
  void bind_blob(int i, const std::string& v) {
    sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void bind(int i, double v) { sqlite3_bind_double(stmt_, i, v); }
  void bind(int i, long long v) { sqlite3_bind_int64(stmt_, i, v); }
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
  std::string blob(int col) const {
    const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, col));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col))) : "";
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

json parse_json_column(const std::string& text, const std::string& path, long long id) {
  try {
    return json::parse(text);
  } catch (const json::exception&) {
    throw InputError(fmt::format("ledger {}: release {} has a corrupted JSON field", path, id));
  }
}

LedgerEntry entry_from_row(const Statement& s, const std::string& path) {
  LedgerEntry e;
  e.id = s.integer(0);
  e.dataset = s.text(1);
  e.created = s.text(2);
  e.record = parse_json_column(s.text(3), path, e.id);
  e.epsilon = s.real(4);
  e.delta = s.real(5);
  e.conversion = s.text(6);
  e.parameters = parse_json_column(s.text(7), path, e.id);
  e.out_dir = s.text(8);
  e.path_id = s.text(9);
  e.data_sha256 = s.text(10);
  e.identity = parse_json_column(s.text(11), path, e.id);
  e.state = parse_release_state(s.text(12));
  e.state_note = s.text(13);
  return e;
}

std::string migration_help(const std::string& path) {
  return fmt::format(
      "ledger {}: it still holds budgets keyed by the SHA-256 of data files (ledger schema 1), "
      "which a re-export, a sort or a reformat of the same records defeats. Migrate it once per "
      "data file: `gpdp ledger migrate {} --data FILE --dataset NAME` (with the --x/--y of that "
      "file); `gpdp ledger migrate {}` lists the files still to migrate",
      path, path, path);
}

}  // namespace

struct Ledger::Db {
  sqlite3* handle = nullptr;
  std::string path;

  void exec(const std::string& sql) const {
    char* err = nullptr;
    if (sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string msg = err ? err : sqlite3_errmsg(handle);
      sqlite3_free(err);
      throw InputError(fmt::format("ledger {}: {} (is it a gpdp ledger?)", path, msg));
    }
  }
  long long integer(const char* sql) const {
    Statement s(handle, sql, path);
    return s.step() ? s.integer(0) : 0;
  }
  bool has_table(const char* name) const {
    Statement s(handle, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?1", path);
    s.bind(1, std::string(name));
    return s.step() && s.integer(0) > 0;
  }
  long long legacy_rows() const {
    if (!has_table("legacy_releases")) return 0;
    return integer(
        "SELECT (SELECT count(*) FROM legacy_releases) + "
        "(SELECT count(*) FROM legacy_budgets)");
  }
  // Schema 1 → 2 in place: the old tables are kept aside as legacy_* until migrated.
  void upgrade_legacy() const {
    exec(
        "ALTER TABLE releases RENAME TO legacy_releases;"
        "ALTER TABLE budgets RENAME TO legacy_budgets;"
        "DROP INDEX IF EXISTS releases_by_dataset;");
    exec(kSchema);
    exec(fmt::format("PRAGMA user_version={};", kSchemaVersion));
  }
  std::optional<privacy::RenyiFilter> filter(const std::string& dataset) const {
    Statement s(handle, "SELECT filter FROM budgets WHERE dataset = ?1", path);
    s.bind(1, dataset);
    if (!s.step()) return std::nullopt;
    return privacy::RenyiFilter::from_json(parse_json_column(s.text(0), path, 0),
                                           fmt::format("ledger {}: budget of {}", path, dataset));
  }
  std::vector<LedgerEntry> releases(const std::string& where, const std::string& value) const {
    const std::string sql =
        fmt::format("SELECT {} FROM releases WHERE {} = ?1 ORDER BY id", kReleaseColumns, where);
    Statement s(handle, sql.c_str(), path);
    s.bind(1, value);
    std::vector<LedgerEntry> out;
    while (s.step()) out.push_back(entry_from_row(s, path));
    return out;
  }
  std::optional<Fingerprint> fingerprint(const std::string& dataset) const {
    Statement s(handle, "SELECT fingerprint, records FROM datasets WHERE name = ?1", path);
    s.bind(1, dataset);
    if (!s.step()) return std::nullopt;
    return Fingerprint::from_blob(s.blob(0), static_cast<long>(s.integer(1)));
  }
  // Other datasets sharing records, rows of the file or covariates with `id`.
  std::vector<Overlap> overlaps(const DatasetIdentity& id) const {
    Statement s(handle,
                "SELECT name, fingerprint, table_fingerprint, covariate_fingerprint FROM datasets "
                "WHERE name != ?1 ORDER BY name",
                path);
    s.bind(1, id.name);
    std::vector<Overlap> out;
    while (s.step()) {
      Overlap o{s.text(0)};
      o.shared = shared_records(id.fingerprint.hashes, Fingerprint::from_blob(s.blob(1), 0).hashes);
      o.shared_rows = shared_records(id.table.hashes, Fingerprint::from_blob(s.blob(2), 0).hashes);
      o.shared_covariates =
          shared_covariates(id.covariates.probes, Fingerprint::from_blob(s.blob(3), 0).hashes);
      if (o.shared > 0 || o.shared_rows > 0 || o.shared_covariates > 0) out.push_back(o);
    }
    return out;
  }
  void merge_records(const DatasetIdentity& id) const {
    Statement k(handle,
                "SELECT fingerprint, table_fingerprint, covariate_fingerprint FROM datasets WHERE "
                "name = ?1",
                path);
    k.bind(1, id.name);
    Fingerprint records = id.fingerprint, rows = id.table, covariates = id.covariates.own;
    if (k.step()) {
      records.hashes = merged(Fingerprint::from_blob(k.blob(0), 0).hashes, records.hashes);
      rows.hashes = merged(Fingerprint::from_blob(k.blob(1), 0).hashes, rows.hashes);
      covariates.hashes = merged(Fingerprint::from_blob(k.blob(2), 0).hashes, covariates.hashes);
    }
    Statement s(
        handle,
        "INSERT INTO datasets(name, created, records, fingerprint, table_fingerprint, "
        "covariate_fingerprint) VALUES(?1,?2,?3,?4,?5,?6) ON CONFLICT(name) DO UPDATE SET "
        "records = ?3, fingerprint = ?4, table_fingerprint = ?5, covariate_fingerprint = ?6",
        path);
    s.bind(1, id.name);
    s.bind(2, utc_timestamp());
    s.bind(3, static_cast<long long>(records.hashes.size()));
    s.bind_blob(4, records.blob());
    s.bind_blob(5, rows.blob());
    s.bind_blob(6, covariates.blob());
    s.step();
  }
  void insert_filter(const std::string& dataset, const privacy::RenyiFilter& f) const {
    Statement s(handle, "INSERT INTO budgets(dataset, filter, created) VALUES(?1,?2,?3)", path);
    s.bind(1, dataset);
    s.bind(2, f.to_json().dump());
    s.bind(3, utc_timestamp());
    s.step();
  }
  long long insert_release(const LedgerEntry& e) const {
    Statement s(handle,
                "INSERT INTO releases(dataset, created, record, epsilon, delta, conversion, "
                "parameters, out_dir, path_id, data_sha256, identity, state, state_note) "
                "VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)",
                path);
    s.bind(1, e.dataset);
    s.bind(2, e.created.empty() ? utc_timestamp() : e.created);
    s.bind(3, e.record.dump());
    s.bind(4, e.epsilon);
    s.bind(5, e.delta);
    s.bind(6, e.conversion);
    s.bind(7, e.parameters.dump());
    s.bind(8, e.out_dir);
    s.bind(9, e.path_id);
    s.bind(10, e.data_sha256);
    s.bind(11, e.identity.dump());
    s.bind(12, to_string(e.state));
    s.bind(13, e.state_note);
    s.step();
    return sqlite3_last_insert_rowid(handle);
  }
  std::optional<PathHistory> path_history(const std::string& path_id) const {
    Statement s(handle,
                "SELECT path_id, release_id, answered, digest, pending_answered, pending_digest, "
                "private, updated FROM kept_paths WHERE path_id = ?1",
                path);
    s.bind(1, path_id);
    if (!s.step()) return std::nullopt;
    PathHistory h;
    h.path_id = s.text(0);
    h.release_id = s.integer(1);
    h.current = {s.integer(2), s.text(3)};
    if (!s.text(5).empty()) h.pending = PathGeneration{s.integer(4), s.text(5)};
    h.is_private = s.integer(6) != 0;
    h.updated = s.text(7);
    return h;
  }
  void write_path_history(const PathHistory& h) const {
    Statement s(handle,
                "INSERT INTO kept_paths(path_id, release_id, answered, digest, pending_answered, "
                "pending_digest, private, updated) VALUES(?1,?2,?3,?4,?5,?6,?7,?8) "
                "ON CONFLICT(path_id) DO UPDATE SET answered = ?3, digest = ?4, "
                "pending_answered = ?5, pending_digest = ?6, private = ?7, updated = ?8",
                path);
    s.bind(1, h.path_id);
    s.bind(2, h.release_id);
    s.bind(3, h.current.answered);
    s.bind(4, h.current.digest);
    s.bind(5, h.pending ? h.pending->answered : 0LL);
    s.bind(6, h.pending ? h.pending->digest : std::string());
    s.bind(7, static_cast<long long>(h.is_private ? 1 : 0));
    s.bind(8, utc_timestamp());
    s.step();
  }
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
      sqlite3_exec(handle, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
};

namespace {

std::string describe(const Overlap& o) {
  std::vector<std::string> parts;
  if (o.shared > 0) parts.push_back(fmt::format("{} shared records", o.shared));
  if (o.shared_rows > 0) parts.push_back(fmt::format("{} rows of the same file", o.shared_rows));
  if (o.shared_covariates > 0)
    parts.push_back(fmt::format("{} records at the same covariates", o.shared_covariates));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// PrivacyError naming the earlier dataset(s) that share data with this release.
[[noreturn]] void refuse_overlap(const std::string& path, const DatasetIdentity& id,
                                 const std::vector<Overlap>& overlaps) {
  std::string names;
  for (const auto& o : overlaps)
    names += fmt::format("{}'{}' ({})", names.empty() ? "" : ", ", o.dataset, describe(o));
  throw PrivacyError(
      fmt::format("ledger {}: the data of dataset '{}' ({} distinct records) were already "
                  "released as dataset {}; a budget belongs to the people in the data, whatever "
                  "columns, units or name a release uses, so release them under that dataset's "
                  "name (their releases then compose), or, if they are truly a new dataset, set "
                  "new_dataset_despite_overlap (the certificate records it)",
                  path, id.name, id.fingerprint.hashes.size(), names),
      {"new_dataset_despite_overlap"});
}

}  // namespace

Ledger::Ledger(const std::string& path, const std::string& key_path)
    : Ledger(path, key_path, Mode::Use) {}

Ledger Ledger::open_existing(const std::string& path) { return Ledger(path, "", Mode::Read); }

Ledger Ledger::open_for_migration(const std::string& path, const std::string& key_path) {
  return Ledger(path, key_path, Mode::Migrate);
}

Ledger::Ledger(const std::string& path, const std::string& key_path, Mode mode)
    : path_(path), key_path_(key_path.empty() ? default_key_path(path) : key_path), db_(new Db) {
  db_->path = path;
  if (mode != Mode::Use && !std::filesystem::exists(path)) {
    delete db_;
    throw InputError(fmt::format("ledger {}: no such file", path));
  }
  const int flags =
      SQLITE_OPEN_READWRITE | (mode == Mode::Use ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
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
    const bool quick = [&] {
      Statement s(db_->handle, "PRAGMA quick_check", path);
      return s.step() && s.text(0) == "ok";
    }();
    if (!quick) throw InputError(fmt::format("ledger {}: failed SQLite's integrity check", path));
    db_->transaction(true, [&] {
      const long long app = db_->integer("PRAGMA application_id");
      const long long tables = db_->integer("SELECT count(*) FROM sqlite_master");
      const long long version = db_->integer("PRAGMA user_version");
      if (app == 0 && tables == 0) {
        db_->exec(fmt::format("PRAGMA application_id={}; PRAGMA user_version={};", kApplicationId,
                              kSchemaVersion));
        db_->exec(kSchema);
      } else if (app != kApplicationId) {
        throw InputError(fmt::format("ledger {}: this SQLite file is not a gpdp ledger", path));
      } else if (version == kLegacySchemaVersion && mode == Mode::Migrate) {
        db_->upgrade_legacy();
      } else if (version == kLegacySchemaVersion) {
        throw InputError(migration_help(path));
      } else if (version >= kStatelessSchemaVersion && version < kSchemaVersion) {
        if (version <= kStatelessSchemaVersion) db_->exec(kAddStates);
        if (version <= kPathlessSchemaVersion) db_->exec(kAddPathHistories);
        if (version <= kRecordsOnlySchemaVersion) db_->exec(kAddWiderIdentity);
        db_->exec(fmt::format("PRAGMA user_version={};", kSchemaVersion));
      } else if (version != kSchemaVersion) {
        throw InputError(
            fmt::format("ledger {}: unsupported ledger schema version {}", path, version));
      }
      return 0;
    });
    if (mode == Mode::Use && db_->legacy_rows() > 0) throw InputError(migration_help(path));
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

const LedgerKey& Ledger::key() {
  if (key_) return *key_;
  // The first use of a ledger creates its key file and stores the key's check value; later uses
  // must find the same key.
  const std::string stored = db_->transaction(true, [&] {
    Statement s(db_->handle, "SELECT value FROM meta WHERE key = 'key_check'", path_);
    if (s.step()) return s.text(0);
    const LedgerKey created = LedgerKey::load_or_create(key_path_);
    Statement ins(db_->handle, "INSERT INTO meta(key, value) VALUES('key_check', ?1)", path_);
    ins.bind(1, created.check_value());
    ins.step();
    return created.check_value();
  });
  LedgerKey k = LedgerKey::load(key_path_);
  require(k.check_value() == stored,
          fmt::format("ledger {}: its record fingerprints were made with another key than {}; "
                      "give the ledger's own key file",
                      path_, key_path_));
  key_ = k;
  return *key_;
}

std::optional<DatasetSummary> Ledger::dataset(const std::string& name) const {
  Statement s(db_->handle, "SELECT name, created, records FROM datasets WHERE name = ?1", path_);
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  DatasetSummary d;
  d.name = s.text(0);
  d.created = s.text(1);
  d.records = static_cast<long>(s.integer(2));
  d.filter = db_->filter(name);
  d.releases = db_->releases("dataset", name);
  if (d.filter) d.spent = d.filter->spend(composition(d.releases, fmt::format("ledger {}", path_)));
  return d;
}

std::vector<DatasetSummary> Ledger::datasets() const {
  std::vector<std::string> names;
  {
    Statement s(db_->handle, "SELECT name FROM datasets ORDER BY name", path_);
    while (s.step()) names.push_back(s.text(0));
  }
  std::vector<DatasetSummary> out;
  for (const auto& n : names) out.push_back(*dataset(n));
  return out;
}

std::vector<LegacyGroup> Ledger::legacy() const {
  std::vector<LegacyGroup> out;
  if (!db_->has_table("legacy_releases")) return out;
  Statement s(db_->handle,
              "SELECT h, (SELECT count(*) FROM legacy_releases r WHERE r.dataset_sha256 = h), "
              "(SELECT epsilon FROM legacy_budgets b WHERE b.dataset_sha256 = h), "
              "(SELECT delta FROM legacy_budgets b WHERE b.dataset_sha256 = h) FROM "
              "(SELECT dataset_sha256 AS h FROM legacy_releases UNION "
              "SELECT dataset_sha256 FROM legacy_budgets) ORDER BY h",
              path_);
  while (s.step()) {
    LegacyGroup g{s.text(0), static_cast<long>(s.integer(1)), std::nullopt};
    if (s.real(2) > 0) g.budget = Budget{s.real(2), s.real(3)};
    out.push_back(g);
  }
  return out;
}

std::optional<LedgerEntry> Ledger::release_with_path(const std::string& path_id) const {
  if (path_id.empty()) return std::nullopt;
  auto rows = db_->releases("path_id", path_id);
  if (rows.empty()) return std::nullopt;
  return rows.front();
}

std::optional<PathHistory> Ledger::path_history(const std::string& path_id) const {
  return db_->path_history(path_id);
}

namespace {

std::string generation_text(const PathGeneration& g) {
  return fmt::format("{} answered point(s), digest {}", g.answered, g.digest.substr(0, 12));
}

}  // namespace

PathHistory Ledger::open_path(const std::string& path_id, const PathGeneration& file,
                              bool file_private, const std::string& file_name) {
  return db_->transaction(true, [&] {
    const auto releases = db_->releases("path_id", path_id);
    if (path_id.empty() || releases.empty()) {
      throw PrivacyError(
          fmt::format("ledger {} has no release with this kept path ({}, id {}); refusing to "
                      "answer unaccounted queries",
                      path_, file_name, path_id));
    }
    const LedgerEntry& release = releases.front();
    if (release.state == ReleaseState::Failed || release.state == ReleaseState::Abandoned) {
      throw PrivacyError(fmt::format(
          "{}: its release {} is {} in ledger {} ({}); a path of a release that was never "
          "published answers nothing",
          file_name, release.id, to_string(release.state), path_, release.state_note));
    }
    auto h = db_->path_history(path_id);
    if (!h) {  // released before ledger schema 4: the file starts the history
      PathHistory first{path_id, release.id, file, std::nullopt, file_private, ""};
      db_->write_path_history(first);
      return first;
    }
    if (h->pending && file == *h->pending) {
      h->current = *h->pending;  // the file was replaced, the ledger not yet told
    } else if (!(file == h->current)) {
      const bool behind = file.answered < h->current.answered;
      throw PrivacyError(fmt::format(
          "{}: {} the history of kept path {} in ledger {} (the file: {}; the ledger: {}). {} "
          "Only the file the ledger knows may answer; find it, or stop the process that has it",
          file_name, behind ? "is BEHIND" : "does not match", path_id, path_, generation_text(file),
          generation_text(h->current),
          behind ? "It is an older copy of the path (a restored backup?): it would answer again, "
                   "with new independent draws, points the path has already answered (a fork, "
                   "outside ε)."
                 : "It was written without the ledger (a copy of the path answered elsewhere): "
                   "serving it would fork the path's history."));
    }
    h->pending.reset();
    h->is_private = h->is_private && file_private;
    db_->write_path_history(*h);
    return *h;
  });
}

void Ledger::begin_path_save(const std::string& path_id, const PathGeneration& from,
                             const PathGeneration& to, bool to_private) {
  db_->transaction(true, [&] {
    auto h = db_->path_history(path_id);
    if (!h || !(h->current == from)) {
      throw PrivacyError(fmt::format(
          "kept path {}: ledger {} holds {} and this process holds {}; another process has "
          "answered with a copy of this path, so nothing was answered or saved",
          path_id, path_, h ? generation_text(h->current) : "no history", generation_text(from)));
    }
    h->pending = to;
    h->is_private = h->is_private && to_private;
    db_->write_path_history(*h);
    return 0;
  });
}

void Ledger::end_path_save(const std::string& path_id, const PathGeneration& to) {
  db_->transaction(true, [&] {
    auto h = db_->path_history(path_id);
    require(h && h->pending && *h->pending == to,
            fmt::format("kept path {}: ledger {} has no save of {} under way", path_id, path_,
                        generation_text(to)));
    h->current = to;
    h->pending.reset();
    db_->write_path_history(*h);
    return 0;
  });
}

LedgerDecision Ledger::record(LedgerEntry entry, const DatasetIdentity& identity,
                              const std::optional<Budget>& requested,
                              privacy::Conversion conversion, const std::vector<double>& orders) {
  return decide(entry, identity, requested, conversion, orders, ReleaseState::Published);
}

LedgerDecision Ledger::reserve(LedgerEntry entry, const DatasetIdentity& identity,
                               const std::optional<Budget>& requested,
                               privacy::Conversion conversion, const std::vector<double>& orders) {
  return decide(entry, identity, requested, conversion, orders, ReleaseState::Reserved);
}

void Ledger::move(const std::vector<long long>& ids, const std::vector<ReleaseState>& from,
                  ReleaseState to, const std::string& note) {
  db_->transaction(true, [&] {
    for (const long long id : ids) {
      const auto rows = db_->releases("id", std::to_string(id));
      const bool movable =
          !rows.empty() && std::find(from.begin(), from.end(), rows.front().state) != from.end();
      require(
          movable,
          fmt::format("ledger {}: release {} cannot become {}: it is {}", path_, id, to_string(to),
                      rows.empty() ? "not in the ledger" : to_string(rows.front().state)));
      Statement s(db_->handle, "UPDATE releases SET state = ?1, state_note = ?2 WHERE id = ?3",
                  path_);
      s.bind(1, to_string(to));
      s.bind(2, note);
      s.bind(3, id);
      s.step();
    }
    return 0;
  });
}

void Ledger::mark_dispatched(const std::vector<long long>& ids) {
  move(ids, {ReleaseState::Reserved}, ReleaseState::Dispatched, "");
}

void Ledger::mark_published(long long id) {
  move({id}, {ReleaseState::Reserved, ReleaseState::Dispatched}, ReleaseState::Published, "");
}

void Ledger::mark_abandoned(long long id, const std::string& reason) {
  move({id}, {ReleaseState::Reserved, ReleaseState::Dispatched}, ReleaseState::Abandoned, reason);
}

void Ledger::mark_failed(long long id, const std::string& reason) {
  move({id}, {ReleaseState::Published}, ReleaseState::Failed, reason);
}

LedgerDecision Ledger::decision(long long id) const {
  const auto rows = db_->releases("id", std::to_string(id));
  require(!rows.empty(), fmt::format("ledger {}: no release {}", path_, id));
  const LedgerEntry& mine = rows.front();
  std::vector<LedgerEntry> earlier;
  for (auto& e : db_->releases("dataset", mine.dataset))
    if (e.id < id) earlier.push_back(std::move(e));
  LedgerDecision d;
  d.id = id;
  d.earlier_releases = static_cast<long>(earlier.size());
  for (const auto& o : mine.identity.value("overlap_override", json::array()))
    d.overridden.push_back({o.at("dataset").get<std::string>(), o.at("shared").get<long>(),
                            o.value("shared_rows", 0L), o.value("shared_covariates", 0L)});
  d.filter = db_->filter(mine.dataset);
  if (d.filter) {
    const std::string source = fmt::format("ledger {}", path_);
    d.before = d.filter->spend(composition(earlier, source));
    earlier.push_back(mine);
    d.after = d.filter->spend(composition(earlier, source));
  }
  return d;
}

std::vector<LedgerEntry> Ledger::unsettled() const {
  auto rows = db_->releases("state", to_string(ReleaseState::Reserved));
  auto dispatched = db_->releases("state", to_string(ReleaseState::Dispatched));
  rows.insert(rows.end(), dispatched.begin(), dispatched.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return rows;
}

std::vector<LedgerEntry> Ledger::releases_into(const std::string& out_dir) const {
  return db_->releases("out_dir", out_dir);
}

LedgerDecision Ledger::check(const LedgerEntry& entry, const DatasetIdentity& identity,
                             const std::optional<Budget>& requested, privacy::Conversion conversion,
                             const std::vector<double>& orders) {
  return decide(entry, identity, requested, conversion, orders, std::nullopt);
}

LedgerDecision Ledger::decide(const LedgerEntry& entry, const DatasetIdentity& identity,
                              const std::optional<Budget>& requested,
                              privacy::Conversion conversion, const std::vector<double>& orders,
                              std::optional<ReleaseState> insert) {
  check_dataset_name(identity.name);
  require(entry.dataset == identity.name, "ledger: the entry and the identity name two datasets");
  const privacy::Accountant mine =
      privacy::Accountant::replay(entry.record, "the release's privacy record");
  return db_->transaction(insert.has_value(), [&] {
    LedgerDecision d;
    const auto overlaps = db_->overlaps(identity);
    if (!overlaps.empty() && !identity.new_dataset_despite_overlap) {
      refuse_overlap(path_, identity, overlaps);
    }
    d.overridden = overlaps;
    d.filter = db_->filter(identity.name);
    if (d.filter && requested &&
        (d.filter->budget().epsilon != requested->epsilon ||
         d.filter->budget().delta != requested->delta ||
         (!orders.empty() && d.filter->orders() != orders))) {
      throw PrivacyError(fmt::format(
          "ledger {}: the budget of dataset '{}' is fixed at ε = {}, δ = {} (filter order(s) {}); "
          "it cannot be changed to ε = {}, δ = {}",
          path_, identity.name, d.filter->budget().epsilon, d.filter->budget().delta,
          fmt::join(d.filter->orders(), ", "), requested->epsilon, requested->delta));
    }
    if (!d.filter && requested) {
      d.filter = privacy::RenyiFilter::create(*requested, conversion, mine, orders);
      db_->insert_filter(identity.name, *d.filter);
    }
    const auto earlier = db_->releases("dataset", identity.name);
    privacy::Accountant all = composition(earlier, fmt::format("ledger {}", path_));
    d.earlier_releases = static_cast<long>(earlier.size());
    if (d.filter) {
      d.before = d.filter->spend(all);
      all.add(mine);
      d.after = d.filter->spend(all);
      if (!d.after.admitted) {
        throw PrivacyError(fmt::format(
            "privacy budget exceeded: {} earlier release(s) of dataset '{}' spent ε = {:.4g} and "
            "this one would bring the total to ε = {:.4g} > budget ε = {} (at δ = {}; Rényi "
            "filter at α = {:.6g}, fixed when the budget was created); nothing was released "
            "(ledger {})",
            d.earlier_releases, identity.name, d.before.epsilon, d.after.epsilon,
            d.filter->budget().epsilon, d.filter->budget().delta, d.after.alpha, path_));
      }
    }
    if (!insert) return d;
    LedgerEntry row = entry;
    row.state = *insert;
    json overridden = json::array();
    for (const auto& o : overlaps)
      overridden.push_back({{"dataset", o.dataset},
                            {"shared", o.shared},
                            {"shared_rows", o.shared_rows},
                            {"shared_covariates", o.shared_covariates}});
    row.identity = {{"records", identity.fingerprint.records},
                    {"distinct_records", identity.fingerprint.hashes.size()},
                    {"overlap_override", overridden}};
    d.id = db_->insert_release(row);
    db_->merge_records(identity);
    if (!entry.path_id.empty() && entry.path_start) {
      db_->write_path_history(
          {entry.path_id, d.id, *entry.path_start, std::nullopt, entry.path_private, ""});
    }
    return d;
  });
}

DatasetSummary Ledger::migrate_legacy(const std::string& sha256, const DatasetIdentity& identity,
                                      privacy::Conversion conversion) {
  check_dataset_name(identity.name);
  db_->transaction(true, [&] {
    require(db_->has_table("legacy_releases"),
            fmt::format("ledger {}: nothing to migrate (no schema-1 rows)", path_));
    std::vector<LedgerEntry> rows;
    {
      Statement s(db_->handle,
                  "SELECT id, created, mechanism, epsilon, delta, conversion, parameters, out_dir, "
                  "path_id FROM legacy_releases WHERE dataset_sha256 = ?1 ORDER BY id",
                  path_);
      s.bind(1, sha256);
      while (s.step()) {
        LedgerEntry e;
        e.dataset = identity.name;
        e.created = s.text(1);
        e.record = {{"format", "gpdp-privacy-record"},
                    {"version", 1},
                    {"events", json::array({parse_json_column(s.text(2), path_, s.integer(0))})}};
        e.epsilon = s.real(3);
        e.delta = s.real(4);
        e.conversion = s.text(5);
        e.parameters = parse_json_column(s.text(6), path_, s.integer(0));
        e.out_dir = s.text(7);
        e.path_id = s.text(8);
        e.data_sha256 = sha256;
        e.identity = {{"records", identity.fingerprint.records},
                      {"distinct_records", identity.fingerprint.hashes.size()},
                      {"migrated_from", "ledger schema 1"}};
        rows.push_back(std::move(e));
      }
    }
    std::optional<Budget> budget;
    {
      Statement s(db_->handle,
                  "SELECT epsilon, delta FROM legacy_budgets WHERE dataset_sha256 = ?1", path_);
      s.bind(1, sha256);
      if (s.step()) budget = Budget{s.real(0), s.real(1)};
    }
    require(
        !rows.empty() || budget,
        fmt::format("ledger {}: no schema-1 rows for a data file with SHA-256 {}", path_, sha256));
    const auto overlaps = db_->overlaps(identity);
    if (!overlaps.empty() && !identity.new_dataset_despite_overlap) {
      refuse_overlap(path_, identity, overlaps);
    }
    const auto filter = db_->filter(identity.name);
    if (budget && filter &&
        (filter->budget().epsilon != budget->epsilon || filter->budget().delta != budget->delta)) {
      throw PrivacyError(fmt::format(
          "ledger {}: dataset '{}' has the budget ε = {}, δ = {}; the schema-1 budget of {} is "
          "ε = {}, δ = {}: migrate it under a dataset with the same budget",
          path_, identity.name, filter->budget().epsilon, filter->budget().delta, sha256,
          budget->epsilon, budget->delta));
    }
    if (budget && !filter) {
      privacy::Accountant first;
      if (!rows.empty()) first = privacy::Accountant::replay(rows.front().record, path_);
      db_->insert_filter(identity.name, privacy::RenyiFilter::create(*budget, conversion, first));
    }
    for (const auto& e : rows) db_->insert_release(e);
    db_->merge_records(identity);
    Statement del(db_->handle, "DELETE FROM legacy_releases WHERE dataset_sha256 = ?1", path_);
    del.bind(1, sha256);
    del.step();
    Statement delb(db_->handle, "DELETE FROM legacy_budgets WHERE dataset_sha256 = ?1", path_);
    delb.bind(1, sha256);
    delb.step();
    if (db_->legacy_rows() == 0)
      db_->exec("DROP TABLE legacy_releases; DROP TABLE legacy_budgets;");
    return 0;
  });
  return *dataset(identity.name);
}

privacy::Accountant composition(const std::vector<LedgerEntry>& releases,
                                const std::string& source) {
  privacy::Accountant all;
  for (const auto& e : releases) {
    all.add(privacy::Accountant::replay(e.record, fmt::format("{}: release {}", source, e.id)));
  }
  return all;
}

std::string to_string(ReleaseState state) {
  switch (state) {
    case ReleaseState::Reserved:
      return "reserved";
    case ReleaseState::Dispatched:
      return "dispatched";
    case ReleaseState::Published:
      return "published";
    case ReleaseState::Abandoned:
      return "abandoned";
    case ReleaseState::Failed:
      return "failed";
  }
  return "unknown";
}

ReleaseState parse_release_state(const std::string& name) {
  for (const auto s : {ReleaseState::Reserved, ReleaseState::Dispatched, ReleaseState::Published,
                       ReleaseState::Abandoned, ReleaseState::Failed})
    if (to_string(s) == name) return s;
  throw InputError(fmt::format("unknown release state '{}' in the ledger", name));
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
