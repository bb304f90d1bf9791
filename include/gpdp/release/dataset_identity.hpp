#pragma once
// A privacy budget belongs to a NAMED dataset and to its records, not to a file's bytes: the
// ledger keeps, per dataset name, a fingerprint of every record released under it, so that
//   * the same records under the same name compose with everything spent before, whatever the
//     file layout (row order, column order, number formatting, blank lines, line endings);
//   * records already released under another name are refused under a new one (unless the data
//     holder says so explicitly, and the certificate then records it).
// Records alone are too narrow a key: the same file under another column choice (--x y,x, an extra
// covariate column, its lon/lat columns with --crs EPSG:4326, another response column) or the same
// sites with the response in other units are other records, yet the same people. So two more
// fingerprints are kept per name (docs/security.md, "Dataset identity"):
//   * the file's rows: each row's numeric cells as a sorted multiset, whatever columns a release
//     uses (table_fingerprint);
//   * the covariates alone: each record's covariates as a sorted tuple, every value rounded to 24
//     significant bits (about 6e-8 relative: 1 cm at 1.8e5 m) so that float noise and tiny
//     jitter do not make new sites (covariate_fingerprint).
// A release under a new name that shares any of them with another name is refused unless
// overridden.
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
// The file's rows: row i's numeric cells (any order; non-numeric cells left out), sorted.
Fingerprint table_fingerprint(const std::vector<std::vector<double>>& numeric_rows,
                              const LedgerKey& key);

// The covariates alone, rounded (see above). `hashes` holds each record's own rounded tuple (what
// the ledger keeps); `probes[i]` the tuples record i may match: a value within a quarter of a
// rounding step of a step boundary is tried on both sides, so jitter smaller than that always
// matches.
struct CovariateFingerprint {
  Fingerprint own;
  std::vector<std::vector<RecordHash>> probes;
};
CovariateFingerprint covariate_fingerprint(const Eigen::MatrixXd& X, const LedgerKey& key);
// Records of `probes` with a probe in `known` (sorted).
long shared_covariates(const std::vector<std::vector<RecordHash>>& probes,
                       const std::vector<RecordHash>& known);

// Records in both (sorted) sets.
long shared_records(const std::vector<RecordHash>& a, const std::vector<RecordHash>& b);
// The sorted union.
std::vector<RecordHash> merged(const std::vector<RecordHash>& a, const std::vector<RecordHash>& b);

}  // namespace gpdp::release
