// The draw of a release as plain data (release/draw_task.hpp): the spec survives JSON and CBOR
// exactly, the worker's draw equals the in-process one for a seed, and the coordinator refuses a
// worker's answer that is off the lattice, of the wrong shape or from another generator.
#include <gtest/gtest.h>

#include "gpdp/error.hpp"
#include "gpdp/release/draw_task.hpp"

namespace gpdp::release {
namespace {

DrawSpec small_spec(privacy::MechanismKind kind) {
  DrawSpec s;
  s.X = Eigen::VectorXd::LinSpaced(12, 0.0, 1.0);
  s.y = (3.0 * s.X.col(0)).array().sin().matrix();
  s.mechanism.kind = kind;
  s.mechanism.kernel = Kernel::exponential(0.3);
  s.mechanism.r = 2.0;
  s.mechanism.noise_scale = kind == privacy::MechanismKind::Functional ? 0.5 : 0.0;
  s.mechanism.n = 12;
  s.grid = Grid::parse("0:1:17");
  s.points = s.grid->points();
  s.draws = 3;
  s.insecure_seed = 7;
  return s;
}

TEST(ReleaseDrawTask, WorkerDrawEqualsTheInProcessDraw) {
  for (const auto kind :
       {privacy::MechanismKind::PosteriorSample, privacy::MechanismKind::Functional}) {
    const DrawSpec spec = small_spec(kind);
    const nlohmann::json sent = nlohmann::json::from_cbor(nlohmann::json::to_cbor(to_json(spec)));
    const DrawSpec received = draw_spec_from_json(sent);
    EXPECT_EQ(received.X, spec.X);
    EXPECT_EQ(received.points, spec.points);
    const nlohmann::json answer =
        nlohmann::json::from_cbor(nlohmann::json::to_cbor(draw_task(sent)));
    const SnappedDraws local = draw_snapped(spec, false);
    const SnappedDraws remote =
        snapped_draws_from_json(answer, spec, lattice_of(spec.mechanism), "test");
    EXPECT_EQ(remote.values, local.values);
    EXPECT_EQ(remote.values.cols(), 3);
    EXPECT_EQ(remote.rng, "seeded xoshiro256** seed=7 (NOT PRIVATE)");
  }
}

// The grid mean's cells map (--grid-map cells) travels with the spec: the coordinator rebuilds
// the worker's map from the returned table with it, equal to the in-process draw and different
// from the GP map of the same table.
TEST(ReleaseDrawTask, GridMeanCellsMapSurvivesTheWorker) {
  DrawSpec spec = small_spec(privacy::MechanismKind::GridMean);
  spec.mechanism.noise_scale = 0.5;
  spec.mechanism.M_Y = 1.0;
  spec.mechanism.cells = {4};
  spec.mechanism.domain = Box::parse("0:1");
  spec.draws = 1;
  spec.grid_map = GridMap::Cells;
  const nlohmann::json sent = to_json(spec);
  EXPECT_EQ(draw_spec_from_json(sent).grid_map, GridMap::Cells);
  const SnappedDraws remote =
      snapped_draws_from_json(draw_task(sent), spec, lattice_of(spec.mechanism), "test");
  const SnappedDraws local = draw_snapped(spec, false);
  EXPECT_EQ(remote.values, local.values);
  EXPECT_EQ(remote.probability.size(), 0);
  ASSERT_TRUE(local.table.has_value());
  EXPECT_EQ(local.values.col(0),
            cell_means_map(*local.table, spec.points, spec.mechanism.n, spec.mechanism.M_Y));
  spec.grid_map = GridMap::Gp;
  EXPECT_NE(draw_snapped(spec, false).values, local.values);
}

TEST(ReleaseDrawTask, RefusesAnswersOffTheLatticeOrFromAnotherGenerator) {
  const DrawSpec spec = small_spec(privacy::MechanismKind::PosteriorSample);
  const Granularity lattice = lattice_of(spec.mechanism);
  const nlohmann::json good = to_json(draw_snapped(spec, false));
  EXPECT_NO_THROW(snapped_draws_from_json(good, spec, lattice, "w"));
  nlohmann::json off = good;
  off["values"][0][0] = off["values"][0][0].get<double>() + lattice.lambda / 3;
  EXPECT_THROW(snapped_draws_from_json(off, spec, lattice, "w"), InputError);
  nlohmann::json secure = good;
  secure["rng"] = "secure (libsodium randombytes)";
  EXPECT_THROW(snapped_draws_from_json(secure, spec, lattice, "w"), InputError);
  nlohmann::json fewer = good;
  fewer["values"].erase(0);
  EXPECT_THROW(snapped_draws_from_json(fewer, spec, lattice, "w"), InputError);
  nlohmann::json shorter = good;
  shorter["values"][1].erase(0);
  EXPECT_THROW(snapped_draws_from_json(shorter, spec, lattice, "w"), InputError);
}

// Without a seed the worker draws with the secure generator, and says so.
TEST(ReleaseDrawTask, DrawsWithTheSecureGeneratorUnlessSeeded) {
  DrawSpec spec = small_spec(privacy::MechanismKind::PosteriorSample);
  spec.insecure_seed.reset();
  const auto a = draw_snapped(draw_spec_from_json(to_json(spec)), false);
  const auto b = draw_snapped(spec, false);
  EXPECT_EQ(a.rng, "secure (libsodium randombytes)");
  EXPECT_NE(a.values, b.values);
}

}  // namespace
}  // namespace gpdp::release
