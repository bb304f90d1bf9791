#include "ledger_schema.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"

namespace gpdp::release {

namespace {

constexpr int kApplicationId = 0x47504450;  // "GPDP"
constexpr int kSchemaVersion = 5;
constexpr int kRecordsOnlySchemaVersion = 4;  // before the file's and the covariates' fingerprints
constexpr int kPathlessSchemaVersion = 3;     // before kept-path histories
constexpr int kStatelessSchemaVersion = 2;    // before release states
constexpr int kLegacySchemaVersion = 1;

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

std::string migration_help(const std::string& path) {
  return fmt::format(
      "ledger {}: it still holds budgets keyed by the SHA-256 of data files (ledger schema 1), "
      "which a re-export, a sort or a reformat of the same records defeats. Migrate it once per "
      "data file with `gpdp ledger migrate {}`, naming the file, its dataset and (unless they are "
      "x1, x2, ... and y) its covariate and response columns; `gpdp ledger migrate {}` alone "
      "lists the files still to migrate",
      path, path, path);
}

// Schema 1 → 2 in place: the old tables are kept aside as legacy_* until migrated.
void upgrade_legacy(const sqlite::Connection& db) {
  db.exec(
      "ALTER TABLE releases RENAME TO legacy_releases;"
      "ALTER TABLE budgets RENAME TO legacy_budgets;"
      "DROP INDEX IF EXISTS releases_by_dataset;");
  db.exec(kSchema);
  db.exec(fmt::format("PRAGMA user_version={};", kSchemaVersion));
}

}  // namespace

void prepare_schema(const sqlite::Connection& db, LedgerOpening opening) {
  const std::string& path = db.path();
  const bool quick = [&] {
    sqlite::Statement s(db, "PRAGMA quick_check");
    return s.step() && s.text(0) == "ok";
  }();
  if (!quick) throw InputError(fmt::format("ledger {}: failed SQLite's integrity check", path));
  db.transaction(true, [&] {
    const long long app = db.integer("PRAGMA application_id");
    const long long tables = db.integer("SELECT count(*) FROM sqlite_master");
    const long long version = db.integer("PRAGMA user_version");
    if (app == 0 && tables == 0) {
      db.exec(fmt::format("PRAGMA application_id={}; PRAGMA user_version={};", kApplicationId,
                          kSchemaVersion));
      db.exec(kSchema);
    } else if (app != kApplicationId) {
      throw InputError(fmt::format("ledger {}: this SQLite file is not a gpdp ledger", path));
    } else if (version == kLegacySchemaVersion && opening == LedgerOpening::Migrate) {
      upgrade_legacy(db);
    } else if (version == kLegacySchemaVersion) {
      throw InputError(migration_help(path));
    } else if (version >= kStatelessSchemaVersion && version < kSchemaVersion) {
      if (version <= kStatelessSchemaVersion) db.exec(kAddStates);
      if (version <= kPathlessSchemaVersion) db.exec(kAddPathHistories);
      if (version <= kRecordsOnlySchemaVersion) db.exec(kAddWiderIdentity);
      db.exec(fmt::format("PRAGMA user_version={};", kSchemaVersion));
    } else if (version != kSchemaVersion) {
      throw InputError(
          fmt::format("ledger {}: unsupported ledger schema version {}", path, version));
    }
    return 0;
  });
  if (opening == LedgerOpening::Use && legacy_rows(db) > 0) throw InputError(migration_help(path));
}

long long legacy_rows(const sqlite::Connection& db) {
  if (!db.has_table("legacy_releases")) return 0;
  return db.integer(
      "SELECT (SELECT count(*) FROM legacy_releases) + "
      "(SELECT count(*) FROM legacy_budgets)");
}

}  // namespace gpdp::release
