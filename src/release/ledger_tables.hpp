#pragma once
// The ledger's tables read and written as gpdp's types (internal to src/release): one method per
// query, no decision. The tables are those of ledger_schema.cpp; what may be written when is
// decided by Ledger (ledger.cpp), inside the transactions it runs here.
#include <optional>
#include <string>
#include <vector>

#include "gpdp/release/ledger.hpp"
#include "ledger_sqlite.hpp"

namespace gpdp::release {

class LedgerTables {
 public:
  // Opens the ledger file `path` (created when `create`); ledger_schema.hpp prepares it.
  LedgerTables(const std::string& path, bool create) : db_(path, create) {}

  const sqlite::Connection& db() const { return db_; }
  template <class Body>
  auto transaction(bool commit, Body body) const {
    return db_.transaction(commit, body);
  }

  // meta: the check value of the key of the record fingerprints.
  std::optional<std::string> key_check() const;
  void insert_key_check(const std::string& value) const;

  // datasets: the name, creation time and number of records of `name` (nothing else filled).
  std::optional<DatasetSummary> dataset(const std::string& name) const;
  std::vector<std::string> dataset_names() const;
  // Other datasets sharing records, rows of the file or covariates with `id`.
  std::vector<Overlap> overlaps(const DatasetIdentity& id) const;
  // Merges the identity's fingerprints into those of its dataset (created if new).
  void merge_records(const DatasetIdentity& id) const;

  // budgets
  std::optional<privacy::RenyiFilter> filter(const std::string& dataset) const;
  void insert_filter(const std::string& dataset, const privacy::RenyiFilter& f) const;

  // releases: those whose column `where` equals `value`, in id order.
  std::vector<LedgerEntry> releases(const std::string& where, const std::string& value) const;
  long long insert_release(const LedgerEntry& e) const;  // returns the new id
  void set_state(long long id, ReleaseState state, const std::string& note) const;

  // kept_paths
  std::optional<PathHistory> path_history(const std::string& path_id) const;
  void write_path_history(const PathHistory& h) const;

  // legacy_releases and legacy_budgets: schema-1 rows kept aside until migrated.
  bool has_legacy() const;
  std::vector<LegacyGroup> legacy_groups() const;
  // The schema-1 releases of the data file with SHA-256 `sha256`, as entries with their privacy
  // record in the current format (dataset and identity left empty).
  std::vector<LedgerEntry> legacy_releases(const std::string& sha256) const;
  std::optional<Budget> legacy_budget(const std::string& sha256) const;
  // Deletes the rows of `sha256`; drops the legacy tables when none is left.
  void delete_legacy(const std::string& sha256) const;

 private:
  sqlite::Connection db_;
};

}  // namespace gpdp::release
