#include "gpdp/release/outputs.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/gis/geojson.hpp"
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

namespace {

// A writable folder, probed for real (access() says yes to root even on a read-only file system).
bool writable_folder(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  std::string probe = (dir / ".gpdp-write-probe-XXXXXX").string();
  if (::access(dir.c_str(), W_OK | X_OK) != 0 || ::mkdtemp(probe.data()) == nullptr) return false;
  ::rmdir(probe.c_str());
  return true;
}

// Removes the entries of `dir` whose names start with `prefix` and have `suffix_length` more
// characters (mkstemp/mkdtemp names): leftovers of killed writers the caller has the lock of.
void sweep(const fs::path& dir, const std::string& prefix, std::size_t suffix_length) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() == prefix.size() + suffix_length && name.rfind(prefix, 0) == 0)
      fs::remove_all(e.path(), ec);
  }
}

}  // namespace

void check_output_dir(const std::string& out_dir) {
  require_parameter(!out_dir.empty(), "out_dir", "out_dir (a folder) is required");
  const fs::path out = fs::absolute(out_dir);
  std::error_code ec;
  require_parameter(!fs::is_symlink(out, ec), "out_dir",
                    fmt::format("out_dir {}: is a symbolic link; give the folder itself (a release "
                                "renames its finished folder into place, which a link defeats)",
                                out_dir));
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
  require_parameter(
      writable_folder(parent), "out_dir",
      fmt::format("out_dir {}: parent folder {} is not writable", out_dir, parent.string()));
}

void check_keep_path(const std::string& keep_path) {
  const fs::path file = fs::absolute(keep_path);
  std::error_code ec;
  const auto status = fs::symlink_status(file, ec);
  require_parameter(
      !fs::exists(status), "keep_path",
      fmt::format("keep_path {}: exists; a release never overwrites a kept path (it may be another "
                  "release's, which could then never answer again): give a new file name",
                  keep_path));
  require_parameter(writable_folder(file.parent_path()), "keep_path",
                    fmt::format("keep_path {}: folder {} does not exist or is not writable",
                                keep_path, file.parent_path().string()));
}

namespace {

// Locks the hidden folder "<parent>/.<name>.reserved" of `target` (created if missing; flock on
// it): the fd, or -1 when another process holds it. A reservation left by a killed process has no
// holder and is taken over.
int lock_reservation(const fs::path& target, std::string& lock_dir) {
  lock_dir = (target.parent_path() / ("." + target.filename().string() + ".reserved")).string();
  for (int attempt = 0; attempt < 3; ++attempt) {
    ::mkdir(lock_dir.c_str(), 0700);
    const int fd = ::open(lock_dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      return -1;
    }
    // The holder before us may have removed the folder after we opened it: lock the live one.
    struct stat locked {};
    struct stat now {};
    if (::fstat(fd, &locked) == 0 && ::stat(lock_dir.c_str(), &now) == 0 &&
        locked.st_ino == now.st_ino && locked.st_dev == now.st_dev)
      return fd;
    ::close(fd);
  }
  return -1;
}

void unlock_reservation(int fd, const std::string& lock_dir) {
  if (fd < 0) return;
  ::rmdir(lock_dir.c_str());  // before unlocking: a waiter then sees a removed folder
  ::close(fd);
}

}  // namespace

ReservedOutputs::ReservedOutputs(const std::string& out_dir, const std::string& keep_path)
    : out_dir_(fs::absolute(out_dir).string()),
      keep_path_(keep_path.empty() ? "" : fs::absolute(keep_path).string()) {
  const fs::path out(out_dir_);
  out_fd_ = lock_reservation(out, out_lock_);
  std::error_code ec;
  const bool usable = !fs::exists(out, ec) || (fs::is_directory(out, ec) && fs::is_empty(out, ec));
  if (out_fd_ < 0 || !usable) {
    unlock_reservation(out_fd_, out_lock_);
    out_fd_ = -1;
    throw ParameterError({"out_dir"},
                         fmt::format("out_dir {}: another release is writing into this folder "
                                     "(or has just published it); nothing was spent",
                                     out_dir));
  }
  sweep(out.parent_path(), "." + out.filename().string() + ".staging-", 6);
  if (keep_path_.empty()) return;
  const fs::path kept(keep_path_);
  keep_fd_ = lock_reservation(kept, keep_lock_);
  if (keep_fd_ < 0 || fs::exists(fs::symlink_status(kept, ec))) {
    unlock_reservation(keep_fd_, keep_lock_);
    keep_fd_ = -1;
    unlock_reservation(out_fd_, out_lock_);
    out_fd_ = -1;
    throw ParameterError({"keep_path"},
                         fmt::format("keep_path {}: another release is keeping a path there; "
                                     "nothing was spent",
                                     keep_path));
  }
  sweep(kept.parent_path(), "." + kept.filename().string() + ".tmp.", 6);
}

ReservedOutputs::~ReservedOutputs() {
  unlock_reservation(keep_fd_, keep_lock_);
  unlock_reservation(out_fd_, out_lock_);
}

void check_room(const std::string& folder, std::uintmax_t bytes, const std::string& parameter) {
  struct statvfs fs_info {};
  if (::statvfs(folder.c_str(), &fs_info) != 0) return;  // cannot tell: the write will say
  const std::uintmax_t available =
      static_cast<std::uintmax_t>(fs_info.f_bavail) * static_cast<std::uintmax_t>(fs_info.f_frsize);
  const std::uintmax_t needed = bytes + (1u << 20);
  require_parameter(available >= needed, parameter,
                    fmt::format("{}: the file system of {} has {} bytes free and this release "
                                "needs {} there; nothing was spent",
                                parameter, folder, available, needed));
}

void publish_folder(const std::string& out_dir, const std::map<std::string, std::string>& files) {
  const fs::path out = fs::absolute(out_dir);
  std::string staging =
      (out.parent_path() / ("." + out.filename().string() + ".staging-XXXXXX")).string();
  if (::mkdtemp(staging.data()) == nullptr) {
    throw ParameterError({"out_dir"}, fmt::format("out_dir {}: cannot create a staging folder ({})",
                                                  out_dir, std::strerror(errno)));
  }
  try {
    for (const auto& [name, content] : files) {
      write_private_file_atomic((fs::path(staging) / name).string(), content, 0644);
    }
    ::chmod(staging.c_str(), 0755);
    fsync_dir(staging);
    if (::rename(staging.c_str(), out.c_str()) != 0) {
      throw ParameterError({"out_dir"},
                           fmt::format("out_dir {}: could not move the finished release into "
                                       "place ({})",
                                       out_dir, std::strerror(errno)));
    }
  } catch (...) {
    std::error_code ec;
    fs::remove_all(staging, ec);  // nothing half-written is left
    throw;
  }
  fsync_dir(out.parent_path());
}

std::string draws_csv(const Points& points, const std::vector<std::string>& names,
                      const Eigen::MatrixXd& draws, const Eigen::MatrixXd& set_fields,
                      const Eigen::VectorXd& in_set, double center, double scale, double level,
                      const Eigen::VectorXd& probability) {
  std::string out;
  for (const auto& n : names) out += io::csv_field(n) + ",";
  for (Eigen::Index l = 0; l < draws.cols(); ++l) out += fmt::format("draw_{},", l + 1);
  for (Eigen::Index l = 0; l < draws.cols(); ++l) out += fmt::format("value_{},", l + 1);
  out += probability.size() ? "vote_fraction,in_set,probability\n" : "vote_fraction,in_set\n";
  const Eigen::VectorXd votes = vote_fraction(set_fields, level);
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    for (Eigen::Index j = 0; j < points.cols(); ++j) out += io::format_number(points(i, j)) + ",";
    for (Eigen::Index l = 0; l < draws.cols(); ++l) out += io::format_number(draws(i, l)) + ",";
    for (Eigen::Index l = 0; l < draws.cols(); ++l) {
      out += io::format_number(center + scale * draws(i, l)) + ",";
    }
    out += io::format_number(votes(i)) + (in_set(i) > 0 ? ",1" : ",0");
    out += probability.size() ? "," + io::format_number(probability(i)) + "\n" : "\n";
  }
  return out;
}

std::string render_map(const Eigen::MatrixXd& fields, const Grid& grid, double level,
                       const MapText& text, const std::string& format,
                       const std::vector<gis::Polygon>* outline) {
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

std::pair<std::string, std::string> excursion_file(const std::vector<gis::Polygon>& polygons,
                                                   const std::optional<gis::Crs>& crs,
                                                   nlohmann::json properties) {
  properties["convention"] = kSetPolygonConvention;
  if (!crs) {
    properties["area_grid_units"] = gis::area(polygons);
    properties["coordinates"] =
        "grid units: no coordinate reference system was declared (--crs), so this is not RFC "
        "7946 GeoJSON, whose coordinates are WGS 84 longitude/latitude";
    return {"excursion-grid.json",
            gis::geojson_feature_collection({gis::geojson_feature(polygons, properties)}).dump(1) +
                "\n"};
  }
  properties["area_in_declared_crs"] = gis::area(polygons);
  properties["declared_crs"] = crs->id();
  properties["coordinates"] = fmt::format(
      "WGS 84 longitude/latitude (RFC 7946), reprojected from {} by PROJ, rounded to {} decimal "
      "places (1e-{}° ≈ 1 cm)",
      crs->id(), gis::kDecimals, gis::kDecimals);
  return {"excursion.geojson",
          gis::rfc7946_feature_collection(polygons, *crs, properties).dump(1) + "\n"};
}

}  // namespace gpdp::release
