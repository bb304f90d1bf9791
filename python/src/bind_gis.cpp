// gpdp._core.gis: the GIS layer of the C++ library for gpdp.geo (CRS text, map.tif bytes).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>

#include "arrays.hpp"
#include "bindings.hpp"
#include "gpdp/gis/crs.hpp"
#include "gpdp/gis/geotiff.hpp"

namespace gpdp::python {

void bind_gis(py::module_& root) {
  auto m = root.def_submodule("gis", "Coordinate reference systems (PROJ) and GeoTIFF (GDAL).");
  m.def(
      "crs_wkt", [](const std::string& crs) { return gis::Crs::parse(crs).wkt(); }, py::arg("crs"),
      "WKT2 of a 2-D CRS given as AUTH:CODE (InputError otherwise).");
  m.def(
      "cog_geotiff",
      [](const Grid& grid, std::optional<std::string> crs,
         const std::vector<std::pair<std::string, py::array_t<double>>>& bands,
         const std::map<std::string, std::string>& metadata) {
        std::vector<gis::RasterBand> rb;
        for (const auto& [description, values] : bands) {
          const auto v = values.unchecked<1>();
          std::vector<double> copy(static_cast<std::size_t>(v.shape(0)));
          for (py::ssize_t i = 0; i < v.shape(0); ++i) copy[static_cast<std::size_t>(i)] = v(i);
          rb.push_back({description, std::move(copy)});
        }
        std::optional<gis::Crs> c;
        if (crs) c = gis::Crs::parse(*crs);
        const std::string bytes = gis::cog_geotiff(grid, c, rb, metadata);
        return py::bytes(bytes);
      },
      py::arg("grid"), py::arg("crs"), py::arg("bands"), py::arg("metadata"),
      "A Cloud-Optimized GeoTIFF (bytes) of bands [(description, values in grid order)] on a "
      "2-D grid; NaN is nodata.");
}

}  // namespace gpdp::python
