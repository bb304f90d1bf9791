#include "gpdp/gis/rfc7946.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "gpdp/error.hpp"
#include "gpdp/gis/gdal.hpp"
#include "gpdp/gis/geojson.hpp"
#include "gpdp/gis/ogr_polygons.hpp"

namespace gpdp::gis {
namespace {

double rounded(double v) {
  const double scale = std::pow(10.0, kDecimals);
  return std::round(v * scale) / scale;
}

Ring reprojected(const Ring& ring, const Transformer& t) {
  Points xy(static_cast<Eigen::Index>(ring.size()), 2);
  for (std::size_t k = 0; k < ring.size(); ++k) {
    xy(static_cast<Eigen::Index>(k), 0) = ring[k].x;
    xy(static_cast<Eigen::Index>(k), 1) = ring[k].y;
  }
  const Points ll = t.apply(xy, "excursion polygon");
  Ring out;
  for (Eigen::Index k = 0; k < ll.rows(); ++k) {
    const Point2 p{rounded(ll(k, 0)), rounded(ll(k, 1))};
    if (out.empty() || p.x != out.back().x || p.y != out.back().y) out.push_back(p);
  }
  while (out.size() > 1 && out.front().x == out.back().x && out.front().y == out.back().y)
    out.pop_back();
  return out;
}

}  // namespace

std::vector<Polygon> to_wgs84(const std::vector<Polygon>& polygons, const Crs& crs) {
  const Transformer t(crs, Crs::parse("EPSG:4326"));
  std::vector<Polygon> out;
  for (const auto& p : polygons) {
    Polygon q{reprojected(p.outer, t), {}};
    if (q.outer.size() < 3) continue;  // collapsed below the precision
    for (const auto& h : p.holes) {
      Ring r = reprojected(h, t);
      if (r.size() >= 3) q.holes.push_back(std::move(r));
    }
    out.push_back(std::move(q));
  }
  if (invalidity(out).empty()) return out;
  const OGRMultiPolygon g = to_ogr(out);
  const GdalErrors errors;
  const std::unique_ptr<OGRGeometry> valid(g.MakeValid());
  if (valid == nullptr || !valid->IsValid()) {
    throw Error(
        fmt::format("GEOS could not make the reprojected polygons valid: {}", errors.message()));
  }
  return from_ogr(*valid);
}

nlohmann::json rfc7946_feature_collection(const std::vector<Polygon>& polygons, const Crs& crs,
                                          nlohmann::json properties) {
  const auto ll = to_wgs84(polygons, crs);
  nlohmann::json fc = geojson_feature_collection({geojson_feature(ll, std::move(properties))});
  if (!ll.empty()) {
    double w = INFINITY, s = INFINITY, e = -INFINITY, n = -INFINITY;
    for (const auto& p : ll) {
      for (const auto& q : p.outer) {
        w = std::min(w, q.x), e = std::max(e, q.x), s = std::min(s, q.y), n = std::max(n, q.y);
      }
    }
    fc["bbox"] = {w, s, e, n};
  }
  return fc;
}

}  // namespace gpdp::gis
