#pragma once
// The kept state of a released path (`release` with a KeepPath, read and updated by `query`): the
// public parameters needed to rebuild the posterior from the same data, the rounding lattice, the
// ledger row that accounted for it, and every answered point with its UNSNAPPED value. Private
// state: stored through path_store (mode 0600, optional authenticated encryption). One reader and
// one writer, used by both commands.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpdp/kernel.hpp"
#include "gpdp/release/grid_mean.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/release/ledger.hpp"
#include "gpdp/release/path_store.hpp"

namespace gpdp::release {

struct KeptPath {
  std::string path_id;
  std::string dataset_sha256;  // of the data file of the release
  InputSpec input;             // covariate columns as resolved on the data (never empty)
  Kernel kernel = Kernel::exponential(1.0);
  double r = 1.0;
  double sigma = 1.0;
  double eta = 0.0;
  double threshold = 0.0;  // response units
  int lattice_exponent = 0;
  std::string ledger;  // absolute path of the ledger that recorded the release
  long long release_id = 0;
  std::vector<std::string> names;  // coordinate column names of the answered points
  struct Path {
    Points points;           // answered points, k x dim
    Eigen::VectorXd values;  // their unsnapped values
  };
  std::vector<Path> paths;  // one per released draw
  // A released value is offset + the path's value: the prior mean μ₀ of the grid mean's
  // post-processing GP or of a prior-mean release (0 otherwise).
  double offset = 0.0;
  // The grid mean: the released cell table and its noise scales. The path is then a sample of the
  // post-processing GP rebuilt from them (grid_mean.hpp cell_posterior), not from the data.
  std::optional<CellTable> table;
  double noise_scale = 0.0;
  double count_noise = 0.0;
  // false once any answer (the release's included) was drawn with a seeded generator: then the
  // path is NOT PRIVATE for ever (anyone who knows the seed can remove the noise).
  bool private_answers = true;
  // 32 random bytes (hex) keying the digest of the answers that the ledger keeps
  // (path_generation); empty in files written before it existed (the digest is then unkeyed).
  std::string history_key;
  int dim() const { return static_cast<int>(names.size()); }
};

// The path's generation: points answered and a BLAKE2b digest (keyed with history_key) of every
// answered point and unsnapped value, in order. Two files of one path with the same generation hold
// the same answers; the ledger keeps it (Ledger::open_path).
PathGeneration path_generation(const KeptPath& state);

// Writes the state (format "gpdp-path-1") atomically with mode 0600, encrypted when `key` is set.
void save_kept_path(const std::string& file, const KeptPath& state, const PathKey& key);
// Reads it back; InputError naming `file` when it is missing, damaged, wrongly keyed or malformed.
KeptPath load_kept_path(const std::string& file, const PathKey& key);
// The same from the file's bytes (`source` names it in messages).
KeptPath load_kept_path_bytes(const std::string& bytes, const std::string& source,
                              const PathKey& key);

}  // namespace gpdp::release
