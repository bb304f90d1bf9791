#include "gpdp/release/outputs.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/geometry/geojson.hpp"
#include "gpdp/gis/rfc7946.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/plot/figure.hpp"
#include "gpdp/release/path_store.hpp"
#include "gpdp/release/postprocess.hpp"

namespace gpdp::release {

namespace fs = std::filesystem;

namespace {
fs::path resolved(const std::string& p) { return fs::weakly_canonical(fs::absolute(p)); }

void fsync_dir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}
}  // namespace

bool path_within(const std::string& inner, const std::string& outer) {
  const auto a = resolved(inner), b = resolved(outer);
  auto ai = a.begin();
  for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai) {
    if (bi->empty()) continue;  // trailing separator
    if (ai == a.end() || *ai != *bi) return false;
  }
  return true;
}

void check_output_dir(const std::string& out_dir) {
  require_parameter(!out_dir.empty(), "out_dir", "out_dir (a folder) is required");
  const fs::path out = fs::absolute(out_dir);
  std::error_code ec;
  if (fs::exists(out, ec)) {
    require_parameter(fs::is_directory(out, ec), "out_dir",
                      fmt::format("out_dir {}: exists and is not a folder", out_dir));
    require_parameter(
        fs::is_empty(out, ec), "out_dir",
        fmt::format("out_dir {}: folder exists and is not empty (a release never overwrites)",
                    out_dir));
  }
  const fs::path parent = out.parent_path();
  require_parameter(
      fs::is_directory(parent, ec), "out_dir",
      fmt::format("out_dir {}: parent folder {} does not exist", out_dir, parent.string()));
  // Probe for real (access() says yes to root even on a read-only file system).
  std::string probe = (parent / ".gpdp-write-probe-XXXXXX").string();
  require_parameter(
      ::access(parent.c_str(), W_OK | X_OK) == 0 && ::mkdtemp(probe.data()) != nullptr, "out_dir",
      fmt::format("out_dir {}: parent folder {} is not writable", out_dir, parent.string()));
  ::rmdir(probe.c_str());
}

void publish_folder(const std::string& out_dir, const std::map<std::string, std::string>& files) {
  const fs::path out = fs::absolute(out_dir);
  std::string staging =
      (out.parent_path() / ("." + out.filename().string() + ".staging-XXXXXX")).string();
  if (::mkdtemp(staging.data()) == nullptr) {
    throw ParameterError({"out_dir"}, fmt::format("out_dir {}: cannot create a staging folder ({})",
                                                  out_dir, std::strerror(errno)));
  }
  for (const auto& [name, content] : files) {
    write_private_file_atomic((fs::path(staging) / name).string(), content, 0644);
  }
  ::chmod(staging.c_str(), 0755);
  fsync_dir(staging);
  if (::rename(staging.c_str(), out.c_str()) != 0) {
    throw ParameterError(
        {"out_dir"}, fmt::format("out_dir {}: could not move the finished release into place ({}); "
                                 "it is in {}",
                                 out_dir, std::strerror(errno), staging));
  }
  fsync_dir(out.parent_path());
}

std::string draws_csv(const Points& points, const std::vector<std::string>& names,
                      const Eigen::MatrixXd& draws, const Eigen::MatrixXd& set_fields,
                      const Eigen::VectorXd& in_set, double center, double scale, double level) {
  std::string out;
  for (const auto& n : names) out += io::csv_field(n) + ",";
  for (Eigen::Index l = 0; l < draws.cols(); ++l) out += fmt::format("draw_{},", l + 1);
  for (Eigen::Index l = 0; l < draws.cols(); ++l) out += fmt::format("value_{},", l + 1);
  out += "vote_fraction,in_set\n";
  const Eigen::VectorXd votes = vote_fraction(set_fields, level);
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    for (Eigen::Index j = 0; j < points.cols(); ++j) out += io::format_number(points(i, j)) + ",";
    for (Eigen::Index l = 0; l < draws.cols(); ++l) out += io::format_number(draws(i, l)) + ",";
    for (Eigen::Index l = 0; l < draws.cols(); ++l) {
      out += io::format_number(center + scale * draws(i, l)) + ",";
    }
    out += io::format_number(votes(i)) + (in_set(i) > 0 ? ",1\n" : ",0\n");
  }
  return out;
}

std::string render_map(const Eigen::MatrixXd& fields, const Grid& grid, double level,
                       const MapText& text, const std::string& format,
                       const std::vector<geometry::Polygon>* outline) {
  const bool two_d = grid.dim() == 2;
  plot::Figure fig(two_d ? 760 : 900, two_d ? 820 : 520);
  auto& ax = fig.panel();
  ax.title(text.subtitle);
  if (!text.title.empty()) fig.suptitle(text.title);
  if (!text.watermark.empty()) fig.watermark(text.watermark);
  if (two_d) {
    const Eigen::VectorXd field = fields.col(0);
    ax.xlabel("x").ylabel("y");
    ax.heatmap(
        field, grid,
        {.map = plot::Colormap::diverging, .center = level, .colorbar_label = text.value_label});
    if (outline != nullptr) {
      ax.region(
          *outline,
          {.label = "released set", .color = plot::colors::black, .alpha = 0.0, .edge_width = 1.6});
    } else {
      ax.contour(field, grid, level,
                 {.label = "threshold", .color = plot::colors::black, .width = 1.6});
    }
  } else {
    const Points p = grid.points();
    const Eigen::VectorXd xs = p.col(0);
    for (Eigen::Index l = 0; l < fields.cols(); ++l) {
      const Eigen::VectorXd ys = fields.col(l);
      ax.line(
          xs, ys,
          {.label = l == 0 ? "released path(s)" : "", .color = {}, .dashed = false, .width = 1.2});
    }
    ax.hline(level,
             {.label = "threshold", .color = plot::colors::black, .dashed = true, .width = 1.4});
    ax.xlabel("x").ylabel(text.value_label).legend();
  }
  return fig.render(format);
}

std::pair<std::string, std::string> excursion_file(const std::vector<geometry::Polygon>& polygons,
                                                   const std::optional<gis::Crs>& crs,
                                                   nlohmann::json properties) {
  properties["convention"] = kSetPolygonConvention;
  if (!crs) {
    properties["area_grid_units"] = geometry::area(polygons);
    properties["coordinates"] =
        "grid units: no coordinate reference system was declared (--crs), so this is not RFC "
        "7946 GeoJSON, whose coordinates are WGS 84 longitude/latitude";
    return {"excursion-grid.json",
            geometry::geojson_feature_collection({geometry::geojson_feature(polygons, properties)})
                    .dump(1) +
                "\n"};
  }
  properties["area_in_declared_crs"] = geometry::area(polygons);
  properties["declared_crs"] = crs->id();
  properties["coordinates"] = fmt::format(
      "WGS 84 longitude/latitude (RFC 7946), reprojected from {} by PROJ, rounded to {} decimal "
      "places (1e-{}° ≈ 1 cm)",
      crs->id(), gis::kDecimals, gis::kDecimals);
  return {"excursion.geojson",
          gis::rfc7946_feature_collection(polygons, *crs, properties).dump(1) + "\n"};
}

}  // namespace gpdp::release
