#pragma once
// GeoJSON as RFC 7946 requires it: polygons given in a declared CRS are reprojected by PROJ to
// WGS 84 longitude/latitude (EPSG:4326, x = longitude), positions rounded to kDecimals decimal
// places (1e-7° ≈ 1 cm), exterior rings counter-clockwise and holes clockwise (right-hand rule,
// §3.1.6), rings closed, no "crs" member (§4). When reprojection or rounding leaves an invalid
// polygon, GEOS (OGR MakeValid) repairs it; the result is checked valid.
#include <nlohmann/json.hpp>
#include <vector>

#include "gpdp/gis/crs.hpp"
#include "gpdp/gis/polygon.hpp"

namespace gpdp::gis {

inline constexpr int kDecimals = 7;

// The polygons reprojected from `crs` to WGS 84 lon/lat, rounded and valid (see above).
std::vector<Polygon> to_wgs84(const std::vector<Polygon>& polygons, const Crs& crs);

// A FeatureCollection with one Feature: the MultiPolygon of `polygons` (in `crs`) in WGS 84, with
// `properties`, plus a "bbox" (§5).
nlohmann::json rfc7946_feature_collection(const std::vector<Polygon>& polygons, const Crs& crs,
                                          nlohmann::json properties);

}  // namespace gpdp::gis
