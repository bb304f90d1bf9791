#include "gpdp/release/dataset_identity.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sodium.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iterator>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/release/path_store.hpp"

namespace gpdp::release {

namespace {

void init_sodium() {
  if (sodium_init() < 0) throw Error("libsodium could not be initialised");
}

std::string hex(const unsigned char* data, std::size_t size) {
  std::string out(2 * size + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), data, size);
  out.pop_back();
  return out;
}

}  // namespace

void check_dataset_name(const std::string& name) {
  const bool ok =
      !name.empty() && name.size() <= 100 && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
      });
  require_parameter(ok, "dataset",
                    fmt::format("dataset '{}': a name of 1 to 100 letters, digits, '-', '_' or "
                                "'.' is required",
                                name));
}

LedgerKey LedgerKey::load(const std::string& path) {
  std::string bytes;
  try {
    bytes = io::read_file(path);
  } catch (const InputError&) {
    throw InputError(fmt::format(
        "ledger key {}: cannot read it; the ledger's record fingerprints were made with that key "
        "(restore the file; it is never stored in the ledger itself)",
        path));
  }
  require(bytes.size() == 32,
          fmt::format("ledger key {}: not a gpdp ledger key (must be 32 bytes)", path));
  LedgerKey k;
  std::memcpy(k.key_.data(), bytes.data(), 32);
  return k;
}

LedgerKey LedgerKey::load_or_create(const std::string& path) {
  if (std::filesystem::exists(path)) return load(path);
  init_sodium();
  std::string key(32, '\0');
  randombytes_buf(key.data(), key.size());
  const std::string tmp =
      fmt::format("{}.tmp-{}-{}", path, ::getpid(), randombytes_uniform(1u << 30));
  write_private_file_atomic(tmp, key, 0600);
  // link() fails if another process created the key meanwhile: then that key wins.
  const int rc = ::link(tmp.c_str(), path.c_str());
  const int err = errno;
  ::unlink(tmp.c_str());
  if (rc != 0 && err != EEXIST) {
    throw InputError(fmt::format("ledger key {}: cannot create it ({})", path, std::strerror(err)));
  }
  return load(path);
}

std::string LedgerKey::check_value() const {
  init_sodium();
  static const char kCheck[] = "gpdp ledger key check v1";
  unsigned char out[16];
  crypto_generichash(out, sizeof out, reinterpret_cast<const unsigned char*>(kCheck),
                     sizeof kCheck - 1, key_.data(), key_.size());
  return hex(out, sizeof out);
}

RecordHash LedgerKey::hash(const std::vector<double>& record) const {
  std::vector<unsigned char> bytes;
  bytes.reserve(record.size() * 8);
  for (double v : record) {
    const auto bits = std::bit_cast<std::uint64_t>(v + 0.0);  // −0 → +0
    for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<unsigned char>(bits >> (8 * b)));
  }
  RecordHash h{};
  crypto_generichash(h.data(), h.size(), bytes.data(), bytes.size(), key_.data(), key_.size());
  return h;
}

std::string default_key_path(const std::string& ledger_path) { return ledger_path + ".key"; }

std::string Fingerprint::blob() const {
  std::string out;
  out.reserve(hashes.size() * sizeof(RecordHash));
  for (const auto& h : hashes) out.append(reinterpret_cast<const char*>(h.data()), h.size());
  return out;
}

Fingerprint Fingerprint::from_blob(const std::string& blob, long records) {
  require(blob.size() % sizeof(RecordHash) == 0, "ledger: a record fingerprint is truncated");
  Fingerprint f;
  f.records = records;
  f.hashes.resize(blob.size() / sizeof(RecordHash));
  for (std::size_t i = 0; i < f.hashes.size(); ++i)
    std::memcpy(f.hashes[i].data(), blob.data() + i * sizeof(RecordHash), sizeof(RecordHash));
  return f;
}

Fingerprint fingerprint(const Eigen::MatrixXd& X, const Eigen::VectorXd& raw_y,
                        const LedgerKey& key) {
  init_sodium();
  Fingerprint f;
  f.records = static_cast<long>(X.rows());
  std::vector<double> record(static_cast<std::size_t>(X.cols() + 1));
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    for (Eigen::Index j = 0; j < X.cols(); ++j) record[static_cast<std::size_t>(j)] = X(i, j);
    record.back() = raw_y(i);
    f.hashes.push_back(key.hash(record));
  }
  std::sort(f.hashes.begin(), f.hashes.end());
  f.hashes.erase(std::unique(f.hashes.begin(), f.hashes.end()), f.hashes.end());
  return f;
}

namespace {

void sort_unique(std::vector<RecordHash>& hashes) {
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
}

// Distinct keys for the three kinds of hash (a row of the file, covariates, a record), so that
// equal numbers of another kind never collide.
constexpr double kTableTag = 1.0e300, kCovariateTag = -1.0e300;

constexpr int kCovariateBits = 24;  // significant bits kept of each covariate

// v = m·2^e with m in [0.5, 1): the step index of m at kCovariateBits bits, and the index on the
// other side when m lies within a quarter step of a boundary.
std::vector<double> rounded_candidates(double v) {
  if (v == 0.0) return {0.0};
  int e = 0;
  const double m = std::frexp(v, &e);
  const double scaled = std::ldexp(m, kCovariateBits);
  const double nearest = std::round(scaled);
  std::vector<double> out{std::ldexp(nearest, e - kCovariateBits)};
  const double offset = scaled - nearest;  // in [−0.5, 0.5]
  if (std::abs(offset) > 0.25)
    out.push_back(std::ldexp(nearest + (offset > 0 ? 1.0 : -1.0), e - kCovariateBits));
  return out;
}

RecordHash sorted_hash(std::vector<double> values, double tag, const LedgerKey& key) {
  std::sort(values.begin(), values.end());
  values.push_back(tag);
  return key.hash(values);
}

}  // namespace

Fingerprint table_fingerprint(const std::vector<std::vector<double>>& numeric_rows,
                              const LedgerKey& key) {
  init_sodium();
  Fingerprint f;
  f.records = static_cast<long>(numeric_rows.size());
  for (const auto& row : numeric_rows) {
    if (!row.empty()) f.hashes.push_back(sorted_hash(row, kTableTag, key));
  }
  sort_unique(f.hashes);
  return f;
}

CovariateFingerprint covariate_fingerprint(const Eigen::MatrixXd& X, const LedgerKey& key) {
  init_sodium();
  CovariateFingerprint c;
  c.own.records = static_cast<long>(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    std::vector<std::vector<double>> candidates;
    std::vector<double> own;
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      candidates.push_back(rounded_candidates(X(i, j) + 0.0));
      own.push_back(candidates.back().front());
    }
    c.own.hashes.push_back(sorted_hash(own, kCovariateTag, key));
    // Every combination of the candidates (at most 2^dim).
    std::vector<RecordHash> probes;
    std::vector<std::size_t> pick(candidates.size(), 0);
    for (;;) {
      std::vector<double> tuple;
      for (std::size_t j = 0; j < candidates.size(); ++j) tuple.push_back(candidates[j][pick[j]]);
      probes.push_back(sorted_hash(tuple, kCovariateTag, key));
      std::size_t j = 0;
      while (j < pick.size() && ++pick[j] == candidates[j].size()) pick[j++] = 0;
      if (j == pick.size()) break;
    }
    c.probes.push_back(std::move(probes));
  }
  sort_unique(c.own.hashes);
  return c;
}

long shared_covariates(const std::vector<std::vector<RecordHash>>& probes,
                       const std::vector<RecordHash>& known) {
  long shared = 0;
  for (const auto& record : probes) {
    shared += std::any_of(record.begin(), record.end(), [&](const RecordHash& h) {
      return std::binary_search(known.begin(), known.end(), h);
    });
  }
  return shared;
}

long shared_records(const std::vector<RecordHash>& a, const std::vector<RecordHash>& b) {
  long shared = 0;
  auto i = a.begin(), j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++shared, ++i, ++j;
    }
  }
  return shared;
}

std::vector<RecordHash> merged(const std::vector<RecordHash>& a, const std::vector<RecordHash>& b) {
  std::vector<RecordHash> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace gpdp::release
