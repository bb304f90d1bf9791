#include "display_layer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/gis/web_map.hpp"
#include "gpdp/io/csv.hpp"

namespace gpdp::serve {

namespace {

using nlohmann::json;

// Blue below t, white at t, red above; full colour at |v − t| = span.
gis::Rgba diverging(double v, double t, double span) {
  const double s = std::clamp((v - t) / span, -1.0, 1.0);
  const auto pale = static_cast<std::uint8_t>(std::lround(255.0 * (1.0 - std::abs(s))));
  return s > 0 ? gis::Rgba{255, pale, pale, 255} : gis::Rgba{pale, pale, 255, 255};
}

// Index of the grid node nearest to x on one axis, or −1 when x is not within half a step of one.
long node_on(const GridAxis& axis, double x) {
  const double u = (x - axis.lo) / axis.step();
  const long i = std::lround(u);
  return i >= 0 && i < axis.count && std::abs(u - static_cast<double>(i)) < 0.5 ? i : -1;
}

}  // namespace

std::optional<DisplayLayer> display_layer(const ReleaseFolder& folder) {
  const json& cert = folder.certificate();
  const json ev = cert.value("evaluation", json::object());
  const PublicFile* draws = folder.file("draws.csv");
  if (draws == nullptr || !ev.contains("grid_spec") || !ev["grid_spec"].is_string())
    return std::nullopt;
  const Grid grid = Grid::parse(ev["grid_spec"].get<std::string>());
  if (grid.dim() != 2) return std::nullopt;
  const io::CsvTable csv = io::parse_csv(draws->content, "draws.csv");
  const std::vector<std::string> names(csv.header.begin(), csv.header.begin() + 2);
  const Eigen::MatrixXd x = csv.numeric(names), value = csv.numeric({"value_1"});
  const double t = cert.at("threshold").at("t").get<double>();
  const double lo = value.minCoeff(), hi = value.maxCoeff();
  const double span = std::max({std::abs(lo - t), std::abs(hi - t), 1e-300});
  std::vector<gis::Rgba> colours(static_cast<std::size_t>(grid.size()), gis::Rgba{0, 0, 0, 0});
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const long a = node_on(grid.axes()[0], x(i, 0)), b = node_on(grid.axes()[1], x(i, 1));
    require(a >= 0 && b >= 0, fmt::format("draws.csv: row {} is not a node of the grid {}", i + 1,
                                          ev["grid_spec"].get<std::string>()));
    colours[static_cast<std::size_t>(b * grid.axes()[0].count + a)] =
        diverging(value(i, 0), t, span);
  }
  std::optional<gis::Crs> crs;
  if (cert.contains("crs") && cert["crs"].is_object())
    crs = gis::Crs::parse(cert["crs"].at("declared").get<std::string>());
  const gis::WebMapImage image = gis::web_map_image(grid, crs, colours);
  const json input = cert.value("input", json::object());
  std::string units = input.value("response", "response");
  if (input.value("transform", "none") == "log") units += ", log";
  const char* polygons = folder.file("excursion.geojson")     ? "excursion.geojson"
                         : folder.file("excursion-grid.json") ? "excursion-grid.json"
                                                              : nullptr;
  const auto& b = image.bounds;
  DisplayLayer layer;
  layer.png = image.png;
  layer.json = json{{"bounds", {{b[0], b[1]}, {b[2], b[3]}}},
                    {"lat_lng", image.lat_lng},
                    {"threshold", t},
                    {"span", span},
                    {"min", lo},
                    {"max", hi},
                    {"units", units},
                    {"polygons", polygons ? json(polygons) : json(nullptr)},
                    {"width", image.width},
                    {"height", image.height}}
                   .dump();
  return layer;
}

}  // namespace gpdp::serve
