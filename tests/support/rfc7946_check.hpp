#pragma once
// A structural RFC 7946 check of a GeoJSON FeatureCollection of (Multi)Polygons: no "crs" member
// (§4), positions [longitude, latitude] within [-180, 180] × [-90, 90], rings closed with at least
// four positions (§3.1.6), exterior rings counter-clockwise and holes clockwise (right-hand rule),
// and every geometry valid (GEOS through OGR). Returns "" when all hold, else what failed.
// polygons_of() reads the polygons back (rings without the repeated closing position).
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/gis/ogr_polygons.hpp"
#include "gpdp/gis/polygon.hpp"

namespace gpdp::test {

inline std::vector<gis::Polygon> polygons_of(const nlohmann::json& geometry) {
  auto ring = [](const nlohmann::json& positions) {
    gis::Ring r;
    for (std::size_t k = 0; k + 1 < positions.size(); ++k)
      r.push_back({positions[k][0].get<double>(), positions[k][1].get<double>()});
    return r;
  };
  std::vector<gis::Polygon> out;
  const bool multi = geometry["type"] == "MultiPolygon";
  const nlohmann::json polys =
      multi ? geometry["coordinates"] : nlohmann::json::array({geometry["coordinates"]});
  for (const auto& polygon : polys) {
    gis::Polygon p{ring(polygon[0]), {}};
    for (std::size_t h = 1; h < polygon.size(); ++h) p.holes.push_back(ring(polygon[h]));
    out.push_back(std::move(p));
  }
  return out;
}

inline std::string rfc7946_failure(const nlohmann::json& fc) {
  if (fc.value("type", "") != "FeatureCollection") return "not a FeatureCollection";
  if (fc.contains("crs")) return "has a 'crs' member (RFC 7946 §4 removed it)";
  for (const auto& f : fc["features"]) {
    const auto& g = f["geometry"];
    if (g["type"] != "MultiPolygon" && g["type"] != "Polygon") return "not a (Multi)Polygon";
    const nlohmann::json polys =
        g["type"] == "MultiPolygon" ? g["coordinates"] : nlohmann::json::array({g["coordinates"]});
    for (const auto& polygon : polys) {
      for (std::size_t r = 0; r < polygon.size(); ++r) {
        const auto& ring = polygon[r];
        if (ring.size() < 4) return "a ring with fewer than four positions";
        if (ring.front() != ring.back()) return "a ring not closed";
        double twice_area = 0;
        for (std::size_t k = 0; k < ring.size(); ++k) {
          const double lon = ring[k][0].get<double>(), lat = ring[k][1].get<double>();
          if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90))
            return fmt::format("position ({}, {}) is not a longitude/latitude", lon, lat);
          if (k + 1 < ring.size()) {
            twice_area += (lon - ring[0][0].get<double>()) *
                              (ring[k + 1][1].get<double>() - ring[0][1].get<double>()) -
                          (ring[k + 1][0].get<double>() - ring[0][0].get<double>()) *
                              (lat - ring[0][1].get<double>());
          }
        }
        if ((r == 0) != (twice_area > 0))
          return r == 0 ? "an exterior ring is clockwise" : "a hole is counter-clockwise";
      }
    }
    if (const std::string why = gis::invalidity(polygons_of(g)); !why.empty())
      return "invalid geometry: " + why;
  }
  return "";
}

}  // namespace gpdp::test
