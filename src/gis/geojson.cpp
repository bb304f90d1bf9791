#include "gpdp/gis/geojson.hpp"

#include <algorithm>

namespace gpdp::gis {
namespace {

// RFC 7946 §3.1.6: exterior rings counter-clockwise, holes clockwise; first position repeated.
nlohmann::json ring_json(Ring ring, bool counter_clockwise) {
  if ((signed_area(ring) > 0) != counter_clockwise) std::reverse(ring.begin(), ring.end());
  nlohmann::json out = nlohmann::json::array();
  for (const Point2& p : ring) out.push_back({p.x, p.y});
  if (!ring.empty()) out.push_back({ring.front().x, ring.front().y});
  return out;
}

}  // namespace

nlohmann::json geojson_multipolygon(const std::vector<Polygon>& polygons) {
  nlohmann::json coords = nlohmann::json::array();
  for (const Polygon& poly : polygons) {
    nlohmann::json rings = nlohmann::json::array();
    rings.push_back(ring_json(poly.outer, true));
    for (const Ring& h : poly.holes) rings.push_back(ring_json(h, false));
    coords.push_back(std::move(rings));
  }
  return {{"type", "MultiPolygon"}, {"coordinates", std::move(coords)}};
}

nlohmann::json geojson_feature(const std::vector<Polygon>& polygons, nlohmann::json properties) {
  return {{"type", "Feature"},
          {"geometry", geojson_multipolygon(polygons)},
          {"properties", std::move(properties)}};
}

nlohmann::json geojson_feature_collection(std::vector<nlohmann::json> features) {
  return {{"type", "FeatureCollection"}, {"features", std::move(features)}};
}

}  // namespace gpdp::gis
