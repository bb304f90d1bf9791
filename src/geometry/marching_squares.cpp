#include "gpdp/geometry/marching_squares.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::geometry {
namespace {

// The field on the grid padded by one layer of points on every side that sit exactly on the
// boundary points (zero-width cells) and lie below the level. The padded field's excursion set
// equals the original one, and every ring closes: where the set meets the boundary, the contour
// runs through the zero-width cells, i.e. along the domain boundary.
struct Padded {
  long nx, ny;  // padded point counts
  std::vector<double> xs, ys, v;
  std::vector<char> inside;
  double at(long i, long j) const { return v[static_cast<std::size_t>(j * nx + i)]; }
  bool in(long i, long j) const { return inside[static_cast<std::size_t>(j * nx + i)] != 0; }
  bool is_pad(long i, long j) const { return i == 0 || j == 0 || i == nx - 1 || j == ny - 1; }
};

Padded pad(ValuesView values, const Grid& grid, double level) {
  require(grid.dim() == 2, fmt::format("marching squares: needs a 2-D grid, got {}-D", grid.dim()));
  require(values.size() == static_cast<std::size_t>(grid.size()),
          fmt::format("marching squares: {} values for a grid of {} points", values.size(),
                      grid.size()));
  require(std::isfinite(level), "marching squares: the level must be finite");
  const GridAxis& ax = grid.axes()[0];
  const GridAxis& ay = grid.axes()[1];
  Padded p{ax.count + 2, ay.count + 2, {}, {}, {}, {}};
  for (long i = 0; i < p.nx; ++i) p.xs.push_back(ax.at(std::clamp(i - 1, 0L, ax.count - 1)));
  for (long j = 0; j < p.ny; ++j) p.ys.push_back(ay.at(std::clamp(j - 1, 0L, ay.count - 1)));
  const double below = level - 1.0;
  p.v.assign(static_cast<std::size_t>(p.nx * p.ny), below);
  for (long j = 0; j < ay.count; ++j) {
    for (long i = 0; i < ax.count; ++i) {
      const double v = values[static_cast<std::size_t>(j * ax.count + i)];
      require(std::isfinite(v),
              fmt::format("marching squares: value at grid point ({}, {}) is not finite", i, j));
      p.v[static_cast<std::size_t>((j + 1) * p.nx + i + 1)] = v;
    }
  }
  p.inside.resize(p.v.size());
  for (std::size_t k = 0; k < p.v.size(); ++k) p.inside[k] = p.v[k] >= level ? 1 : 0;
  return p;
}

constexpr double kNudge = 1e-9;  // fraction of a cell edge

// Every crossing point lies on one grid edge; edges get ids so that the two cells sharing an edge
// agree on it. Horizontal edge (i,j)-(i+1,j): j*(nx-1)+i; vertical (i,j)-(i,j+1): after those.
struct Edges {
  const Padded& p;
  long horizontal(long i, long j) const { return j * (p.nx - 1) + i; }
  long vertical(long i, long j) const { return (p.nx - 1) * p.ny + j * p.nx + i; }
  long count() const { return (p.nx - 1) * p.ny + p.nx * (p.ny - 1); }
};

struct Trace {
  std::vector<long> next;     // next[e]: the edge the contour reaches after crossing e; -1 none
  std::vector<Point2> point;  // crossing point on edge e
  std::vector<char> on_pad;   // edge e touches a padding point (the domain boundary)
};

// Walks every cell; orients each segment with the excursion set on its left (so outer rings run
// counter-clockwise and holes clockwise).
Trace trace(const Padded& p, double level) {
  const Edges E{p};
  Trace t{std::vector<long>(static_cast<std::size_t>(E.count()), -1),
          std::vector<Point2>(static_cast<std::size_t>(E.count())),
          std::vector<char>(static_cast<std::size_t>(E.count()), 0)};
  auto crossing = [&](long i0, long j0, long i1, long j1) {
    const double a = p.at(i0, j0), b = p.at(i1, j1);
    // A corner exactly at the level would put crossings of several edges on the same point and
    // let rings touch; keeping crossings a hair inside the edge keeps rings disjoint.
    const double f = std::clamp((level - a) / (b - a), kNudge, 1 - kNudge);
    return Point2{p.xs[i0] + f * (p.xs[i1] - p.xs[i0]), p.ys[j0] + f * (p.ys[j1] - p.ys[j0])};
  };
  for (long j = 0; j + 1 < p.ny; ++j) {
    for (long i = 0; i + 1 < p.nx; ++i) {
      // Corners counter-clockwise from bottom-left; edge k joins corner k to corner k+1.
      const long ci[4] = {i, i + 1, i + 1, i};
      const long cj[4] = {j, j, j + 1, j + 1};
      const long eid[4] = {E.horizontal(i, j), E.vertical(i + 1, j), E.horizontal(i, j + 1),
                           E.vertical(i, j)};
      bool in[4];
      for (int k = 0; k < 4; ++k) in[k] = p.in(ci[k], cj[k]);
      int leaving[2], entering[2], nl = 0, ne = 0;  // edges crossed inside->outside / reverse
      for (int k = 0; k < 4; ++k) {
        const int k1 = (k + 1) % 4;
        if (in[k] == in[k1]) continue;
        const long e = eid[k];
        t.point[static_cast<std::size_t>(e)] = crossing(ci[k], cj[k], ci[k1], cj[k1]);
        t.on_pad[static_cast<std::size_t>(e)] =
            p.is_pad(ci[k], cj[k]) || p.is_pad(ci[k1], cj[k1]) ? 1 : 0;
        if (in[k]) {
          leaving[nl++] = k;
        } else {
          entering[ne++] = k;
        }
      }
      if (nl == 0) continue;
      if (nl == 1) {
        t.next[static_cast<std::size_t>(eid[leaving[0]])] = eid[entering[0]];
        continue;
      }
      // Saddle: the cell mean decides whether the two inside corners are joined through the
      // centre (segments cut off the outside corners) or separated (they cut off the inside ones).
      const double mean =
          (p.at(ci[0], cj[0]) + p.at(ci[1], cj[1]) + p.at(ci[2], cj[2]) + p.at(ci[3], cj[3])) / 4;
      const int shift = mean >= level ? 1 : 3;
      for (int m = 0; m < 2; ++m) {
        t.next[static_cast<std::size_t>(eid[leaving[m]])] = eid[(leaving[m] + shift) % 4];
      }
    }
  }
  return t;
}

// Closed chains of edge ids.
std::vector<std::vector<long>> chains(const Trace& t) {
  std::vector<char> used(t.next.size(), 0);
  std::vector<std::vector<long>> out;
  for (std::size_t s = 0; s < t.next.size(); ++s) {
    if (t.next[s] < 0 || used[s]) continue;
    std::vector<long> chain;
    for (long e = static_cast<long>(s); !used[static_cast<std::size_t>(e)];
         e = t.next[static_cast<std::size_t>(e)]) {
      used[static_cast<std::size_t>(e)] = 1;
      chain.push_back(e);
    }
    out.push_back(std::move(chain));
  }
  return out;
}

bool same(Point2 a, Point2 b) { return a.x == b.x && a.y == b.y; }

void push_distinct(std::vector<Point2>& pts, Point2 q) {
  if (pts.empty() || !same(pts.back(), q)) pts.push_back(q);
}

}  // namespace

std::vector<Polygon> excursion_polygons(ValuesView values, const Grid& grid, double level) {
  const Padded p = pad(values, grid, level);
  const Trace t = trace(p, level);
  std::vector<Ring> outers, holes;
  const double negligible = 1e-9 * grid.axes()[0].step() * grid.axes()[1].step();
  for (const auto& chain : chains(t)) {
    Ring ring;
    for (long e : chain) push_distinct(ring, t.point[static_cast<std::size_t>(e)]);
    while (ring.size() > 1 && same(ring.front(), ring.back())) ring.pop_back();
    if (ring.size() < 3) continue;
    // Rings of negligible area (around a corner exactly at the level) are dropped.
    const double a = signed_area(ring);
    if (std::abs(a) < negligible) continue;
    if (a > 0) {
      outers.push_back(std::move(ring));
    } else if (a < 0) {
      holes.push_back(std::move(ring));
    }
  }
  std::vector<Polygon> polygons;
  for (auto& r : outers) polygons.push_back({std::move(r), {}});
  // Each hole belongs to the smallest outer ring containing it (tested at an edge midpoint,
  // which cannot lie on another ring unless rings overlap).
  for (auto& h : holes) {
    const Point2 probe{(h[0].x + h[1].x) / 2, (h[0].y + h[1].y) / 2};
    Polygon* best = nullptr;
    double best_area = INFINITY;
    for (auto& poly : polygons) {
      const double a = signed_area(poly.outer);
      if (a < best_area && contains(poly.outer, probe)) {
        best = &poly;
        best_area = a;
      }
    }
    if (best == nullptr) {
      throw NumericalError("marching squares: a hole lies in no outer ring (internal error)");
    }
    best->holes.push_back(std::move(h));
  }
  return polygons;
}

std::vector<Polyline> contour_lines(ValuesView values, const Grid& grid, double level) {
  const Padded p = pad(values, grid, level);
  const Trace t = trace(p, level);
  std::vector<Polyline> lines;
  for (const auto& chain : chains(t)) {
    const auto n = chain.size();
    auto pad_edge = [&](std::size_t k) {
      return t.on_pad[static_cast<std::size_t>(chain[k % n])] != 0;
    };
    std::size_t start = 0;
    while (start < n && !pad_edge(start)) ++start;
    if (start == n) {  // a loop inside the domain
      Polyline l{{}, true};
      for (long e : chain) push_distinct(l.points, t.point[static_cast<std::size_t>(e)]);
      if (l.points.size() > 1 && same(l.points.front(), l.points.back())) l.points.pop_back();
      if (l.points.size() >= 2) lines.push_back(std::move(l));
      continue;
    }
    // Segments between two non-padding edges lie in real cells; those touching a padding edge
    // run along the boundary and are left out. Each maximal run of non-padding edges is a line.
    Polyline l;
    for (std::size_t k = start + 1; k <= start + n; ++k) {
      if (!pad_edge(k)) {
        push_distinct(l.points, t.point[static_cast<std::size_t>(chain[k % n])]);
        continue;
      }
      if (l.points.size() >= 2) lines.push_back(std::move(l));
      l = Polyline{};
    }
  }
  return lines;
}

}  // namespace gpdp::geometry
