#pragma once
// Leaflet, the web-map library of the map page (docs/serve.md), served by gpdp itself from Debian's
// libjs-leaflet (scripts/setup installs it; no CDN, no network): its script, stylesheet and control
// images, read once at start from a folder (default /usr/share/javascript/leaflet) into memory and
// answered under /static/leaflet/<name>. Only the names below are served; no request opens a file.
#include <map>
#include <string>

#include "gpdp/serve/release_folder.hpp"

namespace gpdp::serve {

inline constexpr const char* kDebianLeafletDir = "/usr/share/javascript/leaflet";

class LeafletFiles {
 public:
  // Never throws for missing files: missing() says which, and the page then says so.
  static LeafletFiles load(const std::string& dir);

  // "leaflet.js", "leaflet.css" or "images/<png>"; nullptr for any other name or a missing file.
  const PublicFile* file(const std::string& name) const;
  // "" when every file was read; otherwise which were not (and where they were looked for).
  const std::string& missing() const { return missing_; }

 private:
  std::map<std::string, PublicFile> files_;
  std::string missing_;
};

}  // namespace gpdp::serve
