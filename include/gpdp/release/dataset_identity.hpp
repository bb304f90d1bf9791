#pragma once
// A privacy budget belongs to a NAMED dataset and to its records, not to a file's bytes: the
// ledger keeps, per dataset name, a fingerprint of every record released under it, so that
//   * the same records under the same name compose with everything spent before, whatever the
//     file layout (row order, column order, number formatting, blank lines, line endings);
//   * records already released under another name are refused under a new one (unless the data
//     holder says so explicitly, and the certificate then records it).
// A record is (covariates in the declared order, raw response) exactly as parsed, BEFORE the
// public transform, centring, scaling and clipping (so a change of those does not make the same
// records look new). Its fingerprint is a keyed BLAKE2b-128 hash (libsodium crypto_generichash)
// of the IEEE-754 bits of those numbers (−0 as +0). The key is 32 random bytes in a file beside the
// ledger, never in it: without the key file the stored hashes are pseudorandom strings and cannot
// be tested against guessed records (docs/security.md, "What the ledger reveals").
#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

namespace gpdp::release {

// Letters, digits and - _ . ; 1 to 100 characters (ParameterError naming "dataset" otherwise).
void check_dataset_name(const std::string& name);

using RecordHash = std::array<unsigned char, 16>;

class LedgerKey {
 public:
  // Reads the key file (InputError if missing or not 32 bytes).
  static LedgerKey load(const std::string& path);
  // Reads it, or creates it (mode 0600) if it does not exist; two processes creating it at once
  // end up with the same key (the file is linked into place only if absent).
  static LedgerKey load_or_create(const std::string& path);
  // A keyed hash of a fixed string: stored in the ledger to tell which key it was keyed with.
  std::string check_value() const;
  RecordHash hash(const std::vector<double>& record) const;

 private:
  std::array<unsigned char, 32> key_{};
};

// "<ledger>.key".
std::string default_key_path(const std::string& ledger_path);

struct Fingerprint {
  std::vector<RecordHash> hashes;  // sorted, one per distinct record
  long records = 0;                // records parsed (duplicates included)
  // Concatenated hashes (the ledger's BLOB) and back.
  std::string blob() const;
  static Fingerprint from_blob(const std::string& blob, long records);
};

// The fingerprint of records: row i is (X(i, 0..d−1), raw_y(i)).
Fingerprint fingerprint(const Eigen::MatrixXd& X, const Eigen::VectorXd& raw_y,
                        const LedgerKey& key);
// Records in both (sorted) sets.
long shared_records(const std::vector<RecordHash>& a, const std::vector<RecordHash>& b);
// The sorted union.
std::vector<RecordHash> merged(const std::vector<RecordHash>& a, const std::vector<RecordHash>& b);

}  // namespace gpdp::release
