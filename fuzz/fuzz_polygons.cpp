// libFuzzer target: the excursion polygons of arbitrary fields. The bytes choose the grid's size
// (2–33 points per axis), where it lies (unit box, a longitude/latitude box, projected metres,
// millimetre cells far from the origin) and each node's value among blank (NaN), below, exactly
// at and above the level. Any exception, invalid polygon, node on the wrong side or wrong area
// is a bug (abort), as is anything AddressSanitizer finds.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "gpdp/gis/excursion_polygons.hpp"
#include "support/excursion_check.hpp"

namespace {

gpdp::Grid grid_for(std::uint8_t where, long nx, long ny) {
  const double w = static_cast<double>(nx - 1), h = static_cast<double>(ny - 1);
  switch (where % 4) {
    case 0:
      return gpdp::Grid({{0, 1, nx}, {0, 1, ny}});
    case 1:
      return gpdp::Grid({{-93.70, -93.70 + 0.001 * w, nx}, {41.98, 41.98 + 0.001 * h, ny}});
    case 2:
      return gpdp::Grid({{500000.0, 500000.0 + 25 * w, nx}, {6.6e6, 6.6e6 + 25 * h, ny}});
    default:
      return gpdp::Grid({{1e7, 1e7 + 1e-3 * w, nx}, {-1e7, -1e7 + 1e-3 * h, ny}});
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const long nx = 2 + data[0] % 32, ny = 2 + data[1] % 32;
  const gpdp::Grid grid = grid_for(data[2], nx, ny);
  const double choices[5] = {NAN, -1.0, 0.0, 1.0, -1e-300};
  std::vector<double> values(static_cast<std::size_t>(nx * ny));
  for (std::size_t k = 0; k < values.size(); ++k) {
    const std::size_t at = 3 + k / 3;  // three nodes per byte: base-5 digits
    const unsigned digit = at < size ? (data[at] / (k % 3 == 0 ? 1 : k % 3 == 1 ? 5 : 25)) % 5 : 1;
    values[k] = choices[digit];
  }
  try {
    const auto in = gpdp::gis::excursion_mask(values, 0.0);
    const auto polygons = gpdp::gis::set_polygons(in, grid);
    const std::string failure = gpdp::test::excursion_polygon_failure(in, grid, polygons);
    if (!failure.empty()) {
      std::fprintf(stderr, "excursion polygons: %s\n", failure.c_str());
      std::abort();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "excursion polygons threw: %s\n", e.what());
    std::abort();
  }
  return 0;
}
