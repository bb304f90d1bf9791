#pragma once
// Planar polygons with holes: rings of vertices (the last vertex joins the first; the first is not
// repeated), shoelace area and point-in-polygon.
#include <vector>

namespace gpdp::gis {

struct Point2 {
  double x = 0;
  double y = 0;
};

using Ring = std::vector<Point2>;

struct Polygon {
  Ring outer = {};               // counter-clockwise when produced by excursion_polygons
  std::vector<Ring> holes = {};  // clockwise when produced by excursion_polygons
};

// Shoelace formula: positive for a counter-clockwise ring (x right, y up).
double signed_area(const Ring& ring);
// |outer| minus the holes' areas.
double area(const Polygon& polygon);
double area(const std::vector<Polygon>& polygons);
// Even-odd rule (ray casting). Points exactly on an edge may go either way.
bool contains(const Ring& ring, Point2 p);
// Inside the outer ring and in none of the holes.
bool contains(const Polygon& polygon, Point2 p);
bool contains(const std::vector<Polygon>& polygons, Point2 p);

}  // namespace gpdp::gis
