#include "gpdp/serve/release_folder.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/release/sha256.hpp"

namespace gpdp::serve {

namespace fs = std::filesystem;
using nlohmann::json;

std::optional<std::string> servable_media_type(const std::string& name) {
  static const std::map<std::string, std::string> types = {
      {"map.png", "image/png"},
      {"map.svg", "image/svg+xml"},
      {"map.tif", "image/tiff; application=geotiff; profile=cloud-optimized"},
      {"excursion.geojson", "application/geo+json"},
      {"excursion-grid.json", "application/json"},
      {"draws.csv", "text/csv; charset=utf-8"}};
  const auto it = types.find(name);
  if (it == types.end()) return std::nullopt;
  return it->second;
}

namespace {

void refuse_private_files(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    require(name.find("NOT_FOR_RELEASE") == std::string::npos,
            fmt::format("{}: holds {}, which must never be published; serve the folder "
                        "a release wrote, without its internal evaluation",
                        dir.string(), name));
  }
}

json parse_certificate(const std::string& text, const std::string& source) {
  try {
    json c = json::parse(text);
    require(c.is_object() && c.contains("outputs") && c["outputs"].is_array(),
            fmt::format("{}: not a gpdp certificate (no 'outputs')", source));
    return c;
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: not valid JSON ({})", source, e.what()));
  }
}

}  // namespace

ReleaseFolder ReleaseFolder::load(const std::string& dir) {
  const fs::path root(dir);
  require(fs::is_directory(root), fmt::format("{}: release folder not found", dir));
  refuse_private_files(root);
  ReleaseFolder f;
  const std::string cert_file = (root / "certificate.json").string();
  require(fs::exists(cert_file), fmt::format("{}: no certificate.json", dir));
  f.certificate_text_ = io::read_file(cert_file);
  f.certificate_ = parse_certificate(f.certificate_text_, cert_file);
  for (const auto& out : f.certificate_["outputs"]) {
    const std::string name = out.value("file", "");
    const std::string want = out.value("sha256", "");
    const std::string file = (root / name).string();
    require(!name.empty() && name.find('/') == std::string::npos && fs::exists(file),
            fmt::format("{}: the certificate lists '{}', which is not in the folder", dir, name));
    std::string content = io::read_file(file);
    require(release::sha256_hex(content) == want,
            fmt::format("{}: SHA-256 differs from the certificate's (the folder was changed "
                        "after the release)",
                        file));
    if (const auto type = servable_media_type(name)) f.files_[name] = {std::move(content), *type};
  }
  return f;
}

const PublicFile* ReleaseFolder::file(const std::string& name) const {
  const auto it = files_.find(name);
  return it == files_.end() ? nullptr : &it->second;
}

std::vector<std::string> ReleaseFolder::file_names() const {
  std::vector<std::string> names;
  for (const auto& [name, f] : files_) names.push_back(name);
  return names;
}

}  // namespace gpdp::serve
