#pragma once
// GeoJSON (RFC 7946) for excursion sets: one Feature per set, its geometry a MultiPolygon whose
// outer rings are counter-clockwise and holes clockwise (re-oriented here if needed), rings closed
// by repeating the first position. Coordinates are [x, y] in the grid's units.
#include <nlohmann/json.hpp>
#include <vector>

#include "gpdp/gis/polygon.hpp"

namespace gpdp::gis {

nlohmann::json geojson_multipolygon(const std::vector<Polygon>& polygons);
nlohmann::json geojson_feature(const std::vector<Polygon>& polygons,
                               nlohmann::json properties = nlohmann::json::object());
nlohmann::json geojson_feature_collection(std::vector<nlohmann::json> features);

}  // namespace gpdp::gis
