#include "gpdp/serve/leaflet_files.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpdp::serve {

LeafletFiles LeafletFiles::load(const std::string& dir) {
  static const std::map<std::string, std::string> kServed = {
      {"leaflet.js", "text/javascript; charset=utf-8"},
      {"leaflet.css", "text/css; charset=utf-8"},
      {"images/layers.png", "image/png"},
      {"images/layers-2x.png", "image/png"},
      {"images/marker-icon.png", "image/png"},
      {"images/marker-icon-2x.png", "image/png"},
      {"images/marker-shadow.png", "image/png"}};
  LeafletFiles out;
  std::string missing;
  for (const auto& [name, type] : kServed) {
    std::ifstream in(std::filesystem::path(dir) / name, std::ios::binary);
    std::ostringstream bytes;
    if (in && (bytes << in.rdbuf())) {
      out.files_[name] = PublicFile{bytes.str(), type};
    } else {
      missing += (missing.empty() ? "" : ", ") + name;
    }
  }
  if (!missing.empty()) {
    out.missing_ = fmt::format(
        "the map library Leaflet is not installed in {} ({} missing; Debian package "
        "libjs-leaflet, or the config's map.leaflet_dir)",
        dir, missing);
  }
  return out;
}

const PublicFile* LeafletFiles::file(const std::string& name) const {
  const auto it = files_.find(name);
  return it == files_.end() ? nullptr : &it->second;
}

}  // namespace gpdp::serve
