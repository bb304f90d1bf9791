#pragma once
// The public side of a served release: its certificate and the published files that `gpdp serve`
// hands out (map.png/map.svg, map.tif, excursion.geojson or excursion-grid.json, draws.csv). They
// are read once at start into memory and checked against the SHA-256 the certificate lists in
// "outputs", so the server only ever sends bytes that the release covered, and no request opens a
// file (path traversal has nothing to reach). A folder holding a NOT_FOR_RELEASE file is refused.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gpdp::serve {

struct PublicFile {
  std::string content;
  std::string media_type;
};

class ReleaseFolder {
 public:
  // InputError naming the folder and file when the certificate is missing or malformed, a listed
  // output is missing or differs from its recorded SHA-256, or a NOT_FOR_RELEASE file is there.
  static ReleaseFolder load(const std::string& dir);

  const nlohmann::json& certificate() const { return certificate_; }
  const std::string& certificate_text() const { return certificate_text_; }
  // A servable file by name (only the names above, and only when the release has them).
  const PublicFile* file(const std::string& name) const;
  std::vector<std::string> file_names() const;

 private:
  nlohmann::json certificate_;
  std::string certificate_text_;
  std::map<std::string, PublicFile> files_;
};

// The media type of a servable file name; nullopt for every other name.
std::optional<std::string> servable_media_type(const std::string& name);

}  // namespace gpdp::serve
