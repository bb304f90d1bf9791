#pragma once
// The privacy-budget ledger: a SQLite file that remembers every release made from a dataset
// (keyed by the SHA-256 of the data file) with its RDP curve, so that the next release can be
// composed with everything already spent.
//
// Guarantees (docs/security.md):
//  * record() checks the budget and inserts inside ONE `BEGIN IMMEDIATE` transaction: concurrent
//    releases against one ledger serialise (busy timeout), so two processes cannot both spend the
//    last of a budget;
//  * the transaction is committed with synchronous=FULL (rollback journal) before record()
//    returns: callers write outputs only afterwards, so a crash can waste budget but never release
//    unaccounted draws.
// The ledger does not interpret mechanisms: each row stores the accountant's serialised mechanism
// description (JSON), and the caller supplies the composition (Composer).
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gpdp::release {

struct Budget {
  double epsilon = 0.0;
  double delta = 0.0;
};

struct LedgerEntry {
  long long id = 0;
  std::string dataset_sha256;
  std::string created;       // ISO 8601 UTC
  nlohmann::json mechanism;  // the accountant's mechanism description (includes the count L)
  double epsilon = 0.0;      // this release's own certificate (ε at its δ)
  double delta = 0.0;
  std::string conversion;
  nlohmann::json parameters;  // public parameters of the release
  std::string out_dir;
  std::string path_id;  // non-empty when the release kept its path for lazy queries
};

// Total ε at δ of composing `entries` (all rows so far plus the new one).
using Composer = std::function<double(const std::vector<LedgerEntry>& entries, double delta)>;

struct LedgerDecision {
  long long id = 0;
  std::optional<Budget> budget;
  double epsilon_before = 0.0;  // composed spend at budget δ before this release (0 if none)
  double epsilon_after = 0.0;   // ... including it
};

class Ledger {
 public:
  // Opens (creating if needed) the ledger at `path`. A file that is not a gpdp ledger, or fails
  // SQLite's integrity check, is an InputError naming the path.
  explicit Ledger(const std::string& path);
  ~Ledger();
  Ledger(const Ledger&) = delete;
  Ledger& operator=(const Ledger&) = delete;

  // Opens an existing ledger only (InputError if missing).
  static Ledger open_existing(const std::string& path);

  const std::string& path() const { return path_; }
  std::vector<std::string> datasets() const;
  std::vector<LedgerEntry> releases(const std::string& dataset_sha256) const;
  std::optional<Budget> budget(const std::string& dataset_sha256) const;

  // Atomically: fixes the dataset's budget if it has none and `requested` is given (a budget, once
  // set, can never be changed: a different `requested` is a PrivacyError); composes all earlier
  // releases with `entry`; if a budget exists and the total ε at the budget's δ exceeds it, throws
  // PrivacyError and changes nothing; else inserts `entry` and commits durably.
  LedgerDecision record(LedgerEntry entry, const std::optional<Budget>& requested,
                        const Composer& compose);
  // The same checks without inserting (a fast early refusal; record() decides).
  LedgerDecision check(const LedgerEntry& entry, const std::optional<Budget>& requested,
                       const Composer& compose);

 private:
  struct Db;
  Ledger(const std::string& path, bool create);
  LedgerDecision decide(const LedgerEntry& entry, const std::optional<Budget>& requested,
                        const Composer& compose, bool insert);
  std::string path_;
  Db* db_;
};

// `<data>.gpdp-ledger.sqlite` next to the data file.
std::string default_ledger_path(const std::string& data_path);
// Current UTC time, ISO 8601 with seconds.
std::string utc_timestamp();

}  // namespace gpdp::release
