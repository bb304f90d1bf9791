#include "gpdp/gis/ogr_polygons.hpp"

#include <algorithm>

#include "gpdp/gis/gdal.hpp"

namespace gpdp::gis {
namespace {

OGRLinearRing to_ring(const Ring& ring) {
  OGRLinearRing out;
  for (const auto& p : ring) out.addPoint(p.x, p.y);
  out.closeRings();
  return out;
}

Ring from_ring(const OGRLinearRing& ring, bool counter_clockwise) {
  Ring out;
  const int n = ring.getNumPoints();
  for (int k = 0; k + 1 < n; ++k) out.push_back({ring.getX(k), ring.getY(k)});  // drop closure
  if (ring.isClockwise() == counter_clockwise) std::reverse(out.begin(), out.end());
  return out;
}

void collect(const OGRGeometry& g, std::vector<Polygon>& out) {
  switch (wkbFlatten(g.getGeometryType())) {
    case wkbPolygon: {
      const OGRPolygon& p = *g.toPolygon();
      if (p.IsEmpty()) return;
      Polygon poly{from_ring(*p.getExteriorRing(), true), {}};
      for (int h = 0; h < p.getNumInteriorRings(); ++h)
        poly.holes.push_back(from_ring(*p.getInteriorRing(h), false));
      out.push_back(std::move(poly));
      return;
    }
    case wkbMultiPolygon:
    case wkbGeometryCollection:
      for (const OGRGeometry* part : *g.toGeometryCollection()) collect(*part, out);
      return;
    default:
      return;
  }
}

}  // namespace

OGRMultiPolygon to_ogr(const std::vector<Polygon>& polygons) {
  OGRMultiPolygon out;
  for (const auto& poly : polygons) {
    OGRPolygon p;
    p.addRingDirectly(std::make_unique<OGRLinearRing>(to_ring(poly.outer)).release());
    for (const auto& h : poly.holes)
      p.addRingDirectly(std::make_unique<OGRLinearRing>(to_ring(h)).release());
    out.addGeometry(&p);
  }
  return out;
}

std::vector<Polygon> from_ogr(const OGRGeometry& geometry) {
  std::vector<Polygon> out;
  collect(geometry, out);
  return out;
}

std::string invalidity(const std::vector<Polygon>& polygons) {
  ensure_gdal();
  const OGRMultiPolygon g = to_ogr(polygons);
  const GdalErrors errors;
  if (g.IsValid()) return "";
  const std::string why = errors.message();
  return why.empty() ? "invalid (GEOS gave no reason)" : why;
}

}  // namespace gpdp::gis
