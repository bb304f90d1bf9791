#pragma once
// The ledger's schema (internal to src/release): its tables at version 5, the in-place upgrades
// from versions 2, 3 and 4, and schema 1 (budgets keyed by the SHA-256 of data files), whose rows
// are kept aside as legacy_* tables until migrated (Ledger::migrate_legacy). The history of the
// versions is in ledger.hpp.
#include <string>

#include "ledger_sqlite.hpp"

namespace gpdp::release {

// What a ledger is opened for: use (created when missing; schema-1 rows refused with the migration
// command), read (schema-1 rows listed, not refused), or migration (a schema-1 file converted to
// schema 2 in place, its rows kept aside).
enum class LedgerOpening { Use, Read, Migrate };

// Checks the open connection `db` with SQLite's quick_check, then, in one transaction, gives an
// empty file the current schema, upgrades a schema-2, -3 or -4 ledger in place, and converts or
// refuses a schema-1 one as `opening` says. InputError naming the ledger for a file that fails the
// check, is not a gpdp ledger, or has an unsupported version.
void prepare_schema(const sqlite::Connection& db, LedgerOpening opening);

// The number of schema-1 rows still kept aside (0 when there are none).
long long legacy_rows(const sqlite::Connection& db);

}  // namespace gpdp::release
