#pragma once
// The released map as a layer of the map page's web map (docs/serve.md), built once at start from
// what the release published — draws.csv's first released path on its 2-D grid, the certificate's
// grid, threshold and CRS — and nothing else:
//   display.png   the released values coloured (blue below the threshold t, white at t, red above,
//                 full colour at the largest |value − t|; masked cells transparent), reprojected to
//                 Web Mercator when the release declares a CRS (gis/web_map.hpp)
//   display.json  {"bounds": [[south, west], [north, east]] (or [[ymin, xmin], [ymax, xmax]] in
//                 the release's coordinates without a CRS), "lat_lng", "threshold", "span", "min",
//                 "max", "units", "polygons": the excursion file to draw over it or null,
//                 "width", "height"}
#include <optional>
#include <string>

#include "gpdp/serve/release_folder.hpp"

namespace gpdp::serve {

struct DisplayLayer {
  std::string png;
  std::string json;
};

// nullopt unless the release evaluated a 2-D grid and published draws.csv.
std::optional<DisplayLayer> display_layer(const ReleaseFolder& folder);

}  // namespace gpdp::serve
