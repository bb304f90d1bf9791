#pragma once
// Lazy evaluation of a kept path (docs/mathematics.md §1), the one implementation behind
// `gpdp query` (query.cpp) and `gpdp serve` (serve/served_path.cpp): the data check before a path
// may answer (the data file is the release's, byte for byte; the ledger's checks are OpenPath's,
// open_path.hpp), the rounding lattice of its answers, and the answers themselves.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpdp/posterior.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/release/kept_path.hpp"
#include "gpdp/release/snapping.hpp"
#include "gpdp/rng.hpp"
#include "gpdp/samplers/sample_path.hpp"

namespace gpdp::release {

// The data file of the release, byte for byte (its SHA-256 must match: the posterior is rebuilt
// from exactly those bytes); InputError naming `data_path` otherwise.
PreparedData kept_path_data(const std::string& data_path, const KeptPath& state);

// What a kept path's answers are drawn from and snapped to: the posterior (rebuilt from the data,
// or for the grid mean from its released table) and the rounding lattice of the path's answers
// (InputError naming `path_file` when it differs from the recorded one).
struct KeptPathModel {
  Posterior posterior;
  Granularity lattice;
};
KeptPathModel kept_path_model(const KeptPath& state, const PreparedData& prepared,
                              const std::string& path_file);

// The kept paths of a state as lazily evaluated SamplePaths that keep their conditioning between
// answers (sample_path.hpp: the Cholesky factor of the answered values' covariance, extended by
// one block per answer). prepare() builds it from the state (one O(k³) factorisation per path: a
// server does it at start); each answer() then costs O(k² m + m³ + n k m) per path. The memory
// held is about 4 k² bytes per path (conditioning_bytes()).
class LazyPaths {
 public:
  LazyPaths(const KeptPath& state, const Posterior& posterior);
  void prepare();
  // The released values of every kept path at `model_points` (model coordinates), drawn jointly
  // and conditionally on everything each path has answered (already answered points return their
  // value), offset by state.offset (a prior mean; 0 without one) and snapped to `lattice`; `state`
  // then holds the new answers, and the caller persists it BEFORE the values leave, or calls
  // undo(). Points x paths, model units. On an exception nothing changes.
  Eigen::MatrixXd answer(KeptPath& state, const Granularity& lattice, const Points& model_points,
                         Rng& rng);
  // Forgets the last answer's new points (its state could not be saved).
  void undo();
  double conditioning_bytes() const;

 private:
  std::vector<SamplePath> paths_;
  std::vector<Eigen::Index> before_;  // each path's size before the last answer
};

// One answer of a state's paths, built from the state on the spot (`gpdp query`: one process
// per query).
Eigen::MatrixXd answer_points(KeptPath& state, const Posterior& posterior,
                              const Granularity& lattice, const Points& model_points, Rng& rng);

}  // namespace gpdp::release
