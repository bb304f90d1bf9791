#pragma once
// Coordinate reference systems through PROJ: a declared 2-D CRS (`--crs AUTH:CODE`), the
// projected CRS a geographic domain is modelled in, and transformations between them. Reusable by
// every command that takes --crs (release, query, points files, preview, serve).
//
// Axis order: coordinates are always (x, y) = (easting, northing) or (longitude, latitude),
// whatever order the authority defines (PROJ's "normalized for visualization" order), so that a
// CSV's x column is always the horizontal one.
#include <memory>
#include <string>

#include "gpdp/domain.hpp"
#include "gpdp/kernel.hpp"

namespace gpdp::gis {

class Crs {
 public:
  // "EPSG:28992", "EPSG:4326", "ESRI:102003", ... InputError when the text is not AUTH:CODE, PROJ
  // does not know it, or it is not a 2-D projected or geographic CRS (a 3-D, vertical, compound or
  // geocentric CRS is refused).
  static Crs parse(const std::string& text);

  const std::string& id() const { return id_; }  // as AUTH:CODE, e.g. "EPSG:28992"
  std::string name() const;                      // e.g. "Amersfoort / RD New"
  bool geographic() const;                       // else projected
  std::string unit() const;                      // of the first axis: "metre", "degree", ...
  std::string wkt() const;                       // WKT2 (2019)
  // The CRS's area of use as a lon/lat box (west, south, east, north), degrees.
  Box area_of_use() const;

  struct Impl;

 private:
  explicit Crs(std::shared_ptr<const Impl> impl, std::string id);
  std::shared_ptr<const Impl> impl_;
  std::string id_;
  friend class Transformer;
};

// A transformation between two CRSs: PROJ's best available coordinate operation.
class Transformer {
 public:
  Transformer(const Crs& from, const Crs& to);
  // Each row (x, y) transformed; InputError naming `what` and the row when PROJ cannot transform
  // a point (outside the operation's domain: a non-finite result).
  Points apply(const Points& xy, const std::string& what) const;
  // The smallest box that holds the image of `box` (edges densified, PROJ's proj_trans_bounds).
  Box bounds(const Box& box, const std::string& what) const;

  struct Impl;

 private:
  std::shared_ptr<const Impl> impl_;
};

// The projected CRS in which data in a geographic CRS are modelled: the WGS 84 UTM zone (EPSG:326zz
// north, 327zz south) of the centre of the DECLARED domain (lon/lat box), never of the data.
Crs utm_crs_for(const Box& lonlat_domain);

}  // namespace gpdp::gis
