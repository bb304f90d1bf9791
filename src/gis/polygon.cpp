#include "gpdp/gis/polygon.hpp"

#include <cmath>

namespace gpdp::gis {

double signed_area(const Ring& ring) {
  // Relative to the first vertex: far from the origin (longitudes, projected metres) the products
  // of absolute coordinates would cancel.
  double twice = 0;
  for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
    const Point2 a{ring[i].x - ring[0].x, ring[i].y - ring[0].y};
    const Point2 b{ring[(i + 1) % n].x - ring[0].x, ring[(i + 1) % n].y - ring[0].y};
    twice += a.x * b.y - b.x * a.y;
  }
  return 0.5 * twice;
}

double area(const Polygon& polygon) {
  double a = std::abs(signed_area(polygon.outer));
  for (const Ring& h : polygon.holes) a -= std::abs(signed_area(h));
  return a;
}

double area(const std::vector<Polygon>& polygons) {
  double a = 0;
  for (const Polygon& p : polygons) a += area(p);
  return a;
}

bool contains(const Ring& ring, Point2 p) {
  bool inside = false;
  for (std::size_t i = 0, n = ring.size(), j = n - 1; i < n; j = i++) {
    const Point2& a = ring[i];
    const Point2& b = ring[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

bool contains(const Polygon& polygon, Point2 p) {
  if (!contains(polygon.outer, p)) return false;
  for (const Ring& h : polygon.holes) {
    if (contains(h, p)) return false;
  }
  return true;
}

bool contains(const std::vector<Polygon>& polygons, Point2 p) {
  for (const Polygon& poly : polygons) {
    if (contains(poly, p)) return true;
  }
  return false;
}

}  // namespace gpdp::gis
