#pragma once
// What a release writes, rendered in memory first (so nothing touches the disk before the ledger
// commit), then published as one folder: files go into a hidden staging folder beside --out,
// are fsync'ed, and the folder is renamed to --out in one step.
// Every function here takes RELEASED values (snapped sample paths) only.
#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpdp/gis/crs.hpp"
#include "gpdp/gis/polygon.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/kernel.hpp"

namespace gpdp::release {

// The release folder must not be a symbolic link, must not exist or be empty, and its parent
// must exist and be writable. ParameterError naming out_dir otherwise (checked before any budget
// is spent).
void check_output_dir(const std::string& out_dir);
// The kept path file must not exist (a release never overwrites a kept path: it may be another
// release's) and its folder must exist and be writable. ParameterError naming keep_path otherwise.
void check_keep_path(const std::string& keep_path);

// The outputs of one release, reserved before any budget is spent (stage validate), so that what
// validation can catch costs nothing (docs/security.md, "Budget rules and durability"): out_dir
// and keep_path (if any) are each locked while the release runs, by an exclusive flock on a hidden
// folder beside them (".<name>.reserved", removed when the release ends; one a killed release
// left is taken over), and checked again under the lock (out_dir missing or empty, keep_path
// missing). Releases racing for one folder or one kept path are thus refused before their charge,
// not after it. Under the lock, staging folders and temporaries that killed releases left beside
// them are swept. ParameterError naming the parameter when a reservation fails.
class ReservedOutputs {
 public:
  ReservedOutputs(const std::string& out_dir, const std::string& keep_path);
  ~ReservedOutputs();
  ReservedOutputs(const ReservedOutputs&) = delete;
  ReservedOutputs& operator=(const ReservedOutputs&) = delete;

 private:
  std::string out_dir_, keep_path_, out_lock_, keep_lock_;
  int out_fd_ = -1, keep_fd_ = -1;
};

// Whether the file system of `folder` has room for `bytes` more (statvfs, plus 1 MiB of margin);
// ParameterError naming `parameter` otherwise.
void check_room(const std::string& folder, std::uintmax_t bytes, const std::string& parameter);
// True when `inner` is `outer` or lies inside it (after resolving both).
bool path_within(const std::string& inner, const std::string& outer);

// Writes name → content into a fresh staging folder and renames it to `out_dir` (reserved); on
// failure the staging folder is removed.
void publish_folder(const std::string& out_dir, const std::map<std::string, std::string>& files);

// points, draw_1..draw_L (model units), value_1..value_L (response units = center + scale·draw),
// vote fraction of `set_fields` (the draws, or their smoothed versions) ≥ level, in_set (the
// released set, 1/0: postprocess.hpp excursion_set).
// With a non-empty `probability` (the grid mean's P(f ≥ t) map) a last column `probability`.
std::string draws_csv(const Points& points, const std::vector<std::string>& names,
                      const Eigen::MatrixXd& draws, const Eigen::MatrixXd& set_fields,
                      const Eigen::VectorXd& in_set, double center, double scale, double level,
                      const Eigen::VectorXd& probability = {});

struct MapText {
  std::string title;
  std::string subtitle;
  std::string value_label;
  std::string watermark;  // "NOT FOR RELEASE" for internal evaluation images
};
// 2-D grid: heatmap of `field` (response units) with the outline of the released set when
// `outline` is given, else the contour {field = level}; 1-D grid: the curve(s) with the threshold
// line. `format` is png or svg.
std::string render_map(const Eigen::MatrixXd& fields, const Grid& grid, double level,
                       const MapText& text, const std::string& format,
                       const std::vector<gis::Polygon>* outline = nullptr);

// How the excursion polygons relate to the grid (also written into the GeoJSON).
inline constexpr const char* kSetPolygonConvention =
    "cell-based: each grid node is the centre of a pixel one grid step wide; the polygons are the "
    "union of the pixels of the nodes in the released set";

// The polygons of the released set as a file: with a CRS, "excursion.geojson", RFC 7946 GeoJSON
// (reprojected to WGS 84 lon/lat by PROJ, gis::rfc7946_feature_collection); without one,
// "excursion-grid.json", the same structure in grid units, which is NOT RFC 7946 GeoJSON (whose
// coordinates must be WGS 84) and says so. Returns {file name, content}.
std::pair<std::string, std::string> excursion_file(const std::vector<gis::Polygon>& polygons,
                                                   const std::optional<gis::Crs>& crs,
                                                   nlohmann::json properties);

}  // namespace gpdp::release
