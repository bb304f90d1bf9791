#pragma once
// The map mechanism of a release, prepared once and drawn many times: the one place where a
// release's randomness is drawn. `gpdp release` (stages.hpp draw_and_snap), a batch's workers
// (draw_task.hpp draw_snapped) and the utility benchmark (prepared_release.hpp, Python
// gpdp.mechanisms) all draw through it, so what is measured is exactly what ships.
//
//   prepare (constructor)  what the draws share and is expensive: the posterior's factorisation of
//                          K + r² I and the exact sampler on the evaluation points (the dense
//                          method's m x m factor; sampler.hpp PreparedSampler), or the functional
//                          mechanism's kernel ridge mean and its prior noise sampler
//   draw                   L exact draws with the given generator, snapped to the public lattice
//                          Λ·ℤ (snapping.hpp): the released fields, m x L, model units
//
// The draws of one release consume the generator path by path, in the order `gpdp release` has
// always drawn them. The set and the map derived from the fields are post-processing
// (postprocess.hpp ExcursionRule), never computed from the posterior.
#include <memory>

#include "gpdp/release/draw_task.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::release {

// The grid mean's released fields from its table (post-processing of the DP output, public
// parameters only): with spec.grid_map Gp the post-processing GP's mean at the spec's points
// (m x 1, values) and its P(f ≥ t) map (probability); with Cells each point's noisy cell mean
// (grid_mean.hpp cell_means_map) and no probability map; with the table; `rng` is recorded as
// given.
SnappedDraws grid_mean_draws(const DrawSpec& spec, CellTable table, std::string rng);

class MapMechanism {
 public:
  explicit MapMechanism(const DrawSpec& spec);
  MapMechanism(MapMechanism&&) noexcept;
  MapMechanism& operator=(MapMechanism&&) noexcept;
  ~MapMechanism();

  // One release: spec.draws exact draws snapped to the lattice (SnappedDraws::values, m x L) and
  // the sampler that drew them (SnappedDraws::rng is the caller's to fill); with `keep_paths`, each
  // path's state (the evaluated points and their unsnapped values) for later lazy queries. Not
  // reentrant.
  SnappedDraws draw(Rng& rng, bool keep_paths);

  const Granularity& lattice() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpdp::release
