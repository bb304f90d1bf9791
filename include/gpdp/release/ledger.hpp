#pragma once
// The privacy-budget ledger: a SQLite file that remembers, per NAMED dataset, the fingerprint of
// its records (dataset_identity.hpp), its budget with the privacy filter fixed at creation
// (privacy/filter.hpp), and every release with its privacy record (the accountant's replayable
// events, privacy::Accountant::record), so that the next release is composed with everything
// already spent. The ledger never stores records; the key of their fingerprints lives in a file
// beside it (<ledger>.key), never in it.
//
// Guarantees (docs/security.md):
//  * record() checks identity and budget and inserts inside ONE `BEGIN IMMEDIATE` transaction:
//    concurrent releases against one ledger serialise (busy timeout), so two processes cannot
//    both spend the last of a budget;
//  * the transaction is committed with synchronous=FULL (rollback journal) before record()
//    returns: callers write outputs only afterwards, so a crash can waste budget but never release
//    unaccounted draws.
//  * a batch coordinator records BEFORE the draw (reserve()): the row exists, in state Reserved,
//    before any draw is dispatched, and becomes Published once its folder is in place, or
//    Abandoned (with the reason) when it never will be; every row counts against the budget,
//    whatever its state (docs/security.md, "Batch releases").
//  * a kept path has one history (docs/security.md, "Kept paths"): the ledger holds its generation
//    (points answered, keyed digest of the answers) and moves it on every save; a path file that is
//    behind it (an older copy, a restored backup) or ahead of it (written without the ledger) is
//    refused, and one that ever answered with a seeded generator stays non-private.
// Schema 5 (schema 4 + the fingerprints of the files' rows and of the covariates; schema 4 = schema
// 3 + kept-path histories; schema 3 = schema 2 + each release's state). Schema-2, -3 and -4
// ledgers are upgraded in place when opened (a schema-2 ledger's releases are Published;
// a path released before schema 4 gets its history when first opened); a schema-1 ledger (budgets
// keyed by the SHA-256 of a data file) is refused with the command that migrates it
// (migrate_legacy()).
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/filter.hpp"
#include "gpdp/release/dataset_identity.hpp"

namespace gpdp::release {

using privacy::Budget;

// Where a release stands. record() inserts Published rows; reserve() Reserved ones, which the
// batch coordinator moves on: Reserved -> Dispatched (the draw may now exist outside the ledger's
// process) -> Published, or Reserved|Dispatched -> Abandoned (never published; budget spent).
// Published -> Failed when writing the outputs failed after the commit (budget spent).
enum class ReleaseState { Reserved, Dispatched, Published, Abandoned, Failed };
std::string to_string(ReleaseState state);
ReleaseState parse_release_state(const std::string& name);

// Where a kept path stands: how many points it has answered (the release's own included) and a
// keyed digest of every answered point and value (kept_path.hpp, path_generation()).
struct PathGeneration {
  long long answered = 0;
  std::string digest;
  bool operator==(const PathGeneration&) const = default;
};

struct LedgerEntry {
  long long id = 0;
  std::string dataset;    // the dataset's name
  std::string created;    // ISO 8601 UTC
  nlohmann::json record;  // privacy::Accountant::record() of this release
  double epsilon = 0.0;   // this release's own certificate (ε at its δ)
  double delta = 0.0;
  std::string conversion;
  nlohmann::json parameters;  // public parameters of the release
  std::string out_dir;
  std::string path_id;      // non-empty when the release kept its path for lazy queries
  std::string data_sha256;  // of the data file (information only: identity is by records)
  nlohmann::json identity;  // {"records": n, "overlap_override": [...]} (written by record())
  // With path_id: the kept path's first generation and whether its answers are private; record()
  // starts the path's history with it (not read back from the ledger).
  std::optional<PathGeneration> path_start;
  bool path_private = true;
  ReleaseState state = ReleaseState::Published;
  std::string state_note;  // why an Abandoned or Failed release was not published
};

// The ledger's history of one kept path.
struct PathHistory {
  std::string path_id;
  long long release_id = 0;
  PathGeneration current;
  std::optional<PathGeneration> pending;  // a save under way (or one a crash interrupted)
  bool is_private = true;                 // no answer was ever drawn with a seeded generator
  std::string updated;
};

// Who a release is about: the dataset's name and its records' fingerprint.
struct DatasetIdentity {
  std::string name;
  Fingerprint fingerprint;  // the records
  // Release even though these records were already released under another name (the data holder
  // takes responsibility; recorded in the ledger and the certificate).
  bool new_dataset_despite_overlap = false;
  Fingerprint table;                // the file's rows, any column choice (empty: not known)
  CovariateFingerprint covariates;  // the covariates alone (empty: not known)
};

// Data shared with another dataset of the ledger.
struct Overlap {
  std::string dataset;
  long shared = 0;             // records
  long shared_rows = 0;        // rows of the file (numeric cells), whatever columns were used
  long shared_covariates = 0;  // records whose covariates the other dataset has
};

struct LedgerDecision {
  long long id = 0;
  std::optional<privacy::RenyiFilter> filter;  // the dataset's budget, if it has one
  privacy::RenyiFilter::Spend before;          // spend of the earlier releases (filter only)
  privacy::RenyiFilter::Spend after;           // ... including this one
  std::vector<Overlap> overridden;             // overlaps released despite (with the override)
  long earlier_releases = 0;                   // of this dataset
};

struct DatasetSummary {
  std::string name;
  std::string created;
  long records = 0;  // distinct records released under this name
  std::optional<privacy::RenyiFilter> filter;
  std::optional<privacy::RenyiFilter::Spend> spent;  // the filter's count of every release
  std::vector<LedgerEntry> releases;
};

// The releases' privacy records replayed into one accountant (InputError naming `source` and the
// release for a record this gpdp cannot read).
privacy::Accountant composition(const std::vector<LedgerEntry>& releases,
                                const std::string& source);

// A group of schema-1 rows (one data file's SHA-256) not migrated yet.
struct LegacyGroup {
  std::string sha256;
  long releases = 0;
  std::optional<Budget> budget;
};

class LedgerTables;        // the ledger's tables (src/release/ledger_tables.hpp)
enum class LedgerOpening;  // what a ledger is opened for (src/release/ledger_schema.hpp)

class Ledger {
 public:
  // Opens (creating if needed) the ledger at `path`, its key at `key_path` (default
  // <path>.key, created with a new ledger). A file that is not a gpdp ledger, fails SQLite's
  // integrity check, or still holds schema-1 rows is an InputError naming the path (and, for the
  // latter, the migration command).
  explicit Ledger(const std::string& path, const std::string& key_path = "");
  ~Ledger();
  Ledger(const Ledger&) = delete;
  Ledger& operator=(const Ledger&) = delete;

  // Opens an existing ledger only (InputError if missing) to read it; schema-1 rows are listed by
  // legacy(), not refused.
  static Ledger open_existing(const std::string& path);
  // Opens an existing ledger to migrate it: a schema-1 file is converted to schema 2 in place,
  // its rows kept aside until migrate_legacy() assigns them to a dataset.
  static Ledger open_for_migration(const std::string& path, const std::string& key_path = "");

  const std::string& path() const { return path_; }
  // The key of the record fingerprints (the file beside the ledger; created with a new ledger,
  // checked against the ledger's stored check value otherwise: InputError if missing or another).
  const LedgerKey& key();
  std::vector<DatasetSummary> datasets() const;
  std::optional<DatasetSummary> dataset(const std::string& name) const;
  std::vector<LegacyGroup> legacy() const;
  // The release that kept the path `path_id`, if any.
  std::optional<LedgerEntry> release_with_path(const std::string& path_id) const;
  std::optional<PathHistory> path_history(const std::string& path_id) const;

  // A kept path file opened with generation `file` (`file_private`: the file says none of its
  // answers was seeded), in one transaction: the path's release must be in the ledger and not
  // Failed or Abandoned (PrivacyError), and the file must be the ledger's current generation, or
  // its pending one (a save whose ledger update a crash interrupted: it becomes current; a pending
  // generation the file does not have is dropped: those answers never left). A path released before
  // ledger schema 4 has no history yet: the file's generation becomes its first. PrivacyError
  // naming `file_name` otherwise: behind the ledger (an older copy or a restored backup: it would
  // answer again, with new draws, points the path has already answered) or ahead of it (written
  // without the ledger). Returns the history.
  PathHistory open_path(const std::string& path_id, const PathGeneration& file, bool file_private,
                        const std::string& file_name);
  // A save of a kept path, in two durable steps around the file's atomic replacement:
  // begin_path_save() notes `to` as pending (PrivacyError unless the ledger's current generation
  // is `from`; `to_private` false marks the path non-private for ever), end_path_save() makes it
  // current.
  void begin_path_save(const std::string& path_id, const PathGeneration& from,
                       const PathGeneration& to, bool to_private);
  void end_path_save(const std::string& path_id, const PathGeneration& to);

  // Atomically: refuses records already released under another name (PrivacyError naming it)
  // unless overridden; fixes the dataset's budget and filter if it has none and `requested` is
  // given (a budget, once set, can never be changed: a different `requested` is a PrivacyError);
  // composes the earlier releases of the dataset with `entry`; if the filter does not admit the
  // result, throws PrivacyError and changes nothing; else inserts `entry`, merges the records into
  // the dataset's fingerprint and commits durably. `orders`: the filter's orders when this call
  // creates the budget (empty: chosen by RenyiFilter::create).
  LedgerDecision record(LedgerEntry entry, const DatasetIdentity& identity,
                        const std::optional<Budget>& requested,
                        privacy::Conversion conversion = privacy::kDefaultConversion,
                        const std::vector<double>& orders = {});
  // Record before the draw: the same checks and insert as record(), the row Reserved. From the
  // commit on it counts against the budget, whatever happens to the draw.
  LedgerDecision reserve(LedgerEntry entry, const DatasetIdentity& identity,
                         const std::optional<Budget>& requested,
                         privacy::Conversion conversion = privacy::kDefaultConversion,
                         const std::vector<double>& orders = {});
  // State moves, each one durable transaction; InputError naming the release when it is not in a
  // state the move starts from. Reserved -> Dispatched (all `ids` at once, before the dispatch):
  void mark_dispatched(const std::vector<long long>& ids);
  // Reserved|Dispatched -> Published (its folder is in place):
  void mark_published(long long id);
  // Reserved|Dispatched -> Abandoned, with the reason; its budget stays spent:
  void mark_abandoned(long long id, const std::string& reason);
  // Published -> Failed (its outputs could not be written after the commit), with the reason; its
  // budget stays spent:
  void mark_failed(long long id, const std::string& reason);
  // The decision reserve() returned for release `id` (the dataset's filter, its spend before and
  // after `id`, the overlaps overridden), for a reservation resumed after a restart.
  LedgerDecision decision(long long id) const;
  // The releases still Reserved or Dispatched, in id order.
  std::vector<LedgerEntry> unsettled() const;
  // The releases recorded with this output folder (absolute path), in id order.
  std::vector<LedgerEntry> releases_into(const std::string& out_dir) const;

  // The same checks without inserting (a fast early refusal; record() decides).
  LedgerDecision check(const LedgerEntry& entry, const DatasetIdentity& identity,
                       const std::optional<Budget>& requested,
                       privacy::Conversion conversion = privacy::kDefaultConversion,
                       const std::vector<double>& orders = {});

  // Assigns the schema-1 rows of the data file with SHA-256 `sha256` to a dataset: its records
  // (`identity`, computed from that file) join the dataset's fingerprint, its releases become the
  // dataset's, its budget (if any) the dataset's with a filter fixed now. The same overlap rule as
  // record(). Returns the dataset after migration.
  DatasetSummary migrate_legacy(const std::string& sha256, const DatasetIdentity& identity,
                                privacy::Conversion conversion = privacy::kDefaultConversion);

 private:
  Ledger(const std::string& path, const std::string& key_path, LedgerOpening opening);
  LedgerDecision decide(const LedgerEntry& entry, const DatasetIdentity& identity,
                        const std::optional<Budget>& requested, privacy::Conversion conversion,
                        const std::vector<double>& orders, std::optional<ReleaseState> insert);
  void move(const std::vector<long long>& ids, const std::vector<ReleaseState>& from,
            ReleaseState to, const std::string& note);
  std::string path_;
  std::string key_path_;
  std::optional<LedgerKey> key_;
  std::unique_ptr<LedgerTables> db_;
};

// Current UTC time, ISO 8601 with seconds.
std::string utc_timestamp();

}  // namespace gpdp::release
