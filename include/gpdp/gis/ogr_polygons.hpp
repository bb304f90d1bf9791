#pragma once
// gpdp's polygons (gis::Polygon) to and from OGR geometries, and their OGC validity as
// checked by GEOS (through OGR): rings closed and simple, holes inside their shell, interiors of
// different polygons disjoint (touching at points is allowed).
#include <ogr_geometry.h>

#include <string>
#include <vector>

#include "gpdp/gis/polygon.hpp"

namespace gpdp::gis {

OGRMultiPolygon to_ogr(const std::vector<Polygon>& polygons);

// The polygons of a polygonal geometry (Polygon, MultiPolygon, or a collection holding them;
// parts without area are left out), outer rings counter-clockwise and holes clockwise.
std::vector<Polygon> from_ogr(const OGRGeometry& geometry);

// "" when the polygons, taken as one MultiPolygon, are valid; otherwise why not (GEOS's words).
std::string invalidity(const std::vector<Polygon>& polygons);

}  // namespace gpdp::gis
