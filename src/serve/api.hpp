#pragma once
// The HTTP API of `gpdp serve`, independent of the HTTP library (docs/serve.md):
//   GET  /v1/health                      {"status": "ok"}
//   GET  /v1/releases                    [{"id", "epsilon", "delta", "points_answered", ...}]
//   GET  /v1/releases/{id}/certificate   the certificate JSON, as published
//   GET  /v1/releases/{id}/{file}        map.png | map.svg | map.tif | excursion.geojson |
//                                        excursion-grid.json | draws.csv, when the release has it;
//                                        display.png | display.json (display_layer.hpp)
//   POST /v1/releases/{id}/query         {"points": [[x1, x2], ...]} -> {"draw": [...], "value":
//                                        [...]}; with "crs": "EPSG:4326" (any AUTH:CODE) the points
//                                        are in that CRS and "coordinates" gives them in the
//                                        release's
//   GET  /v1/admin/status                per-release counters (Authorization: Bearer <token>)
//   GET  /                               the map page
//   GET  /static/leaflet/{file}          the page's web-map library (leaflet_files.hpp)
// Every error is {"error": "..."} with a 4xx/5xx status. Responses carry only what the release
// published and the released values of the path: never data, μ_D, p_D or a kept-path state.
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "display_layer.hpp"
#include "gpdp/serve/admin_token.hpp"
#include "gpdp/serve/config.hpp"
#include "gpdp/serve/leaflet_files.hpp"
#include "gpdp/serve/release_folder.hpp"
#include "served_path.hpp"

namespace gpdp::serve {

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // For the request log:
  std::string release;
  long points = -1;
  long new_points = -1;
  std::string error;
};

// {"error": message} with `status` (and Retry-After when retry_after_s > 0).
ApiResponse error_response(int status, const std::string& message, int retry_after_s = 0);

struct ServedRelease {
  std::string id;
  ReleaseFolder folder;
  std::unique_ptr<ServedPath> path;
  std::optional<DisplayLayer> display;  // the map page's layer of the released map
  std::atomic<long> queries{0};
};

class Api {
 public:
  // Opens every release of the config (InputError / PrivacyError naming the release and the file
  // at fault: the server refuses to start rather than serve an unchecked release).
  explicit Api(const ServeConfig& config);

  ApiResponse health() const;
  ApiResponse releases() const;
  ApiResponse certificate(const std::string& id) const;
  ApiResponse file(const std::string& id, const std::string& name) const;
  // `client`: the address the quota of new points is counted for (ServedPath::answer).
  ApiResponse query(const std::string& id, const std::string& body, const std::string& client);
  ApiResponse admin_status(const std::string& authorization) const;
  ApiResponse page() const;
  ApiResponse leaflet(const std::string& name) const;
  // "" when the page's map library is installed, else why not (the server logs it at start).
  const std::string& leaflet_missing() const { return leaflet_.missing(); }

 private:
  ServedRelease& release(const std::string& id) const;  // HttpError 404 when unknown
  // The body's points in the release's declared coordinates; *crs is the CRS they were given in
  // ("" when the release's own).
  Points parse_points(const std::string& body, const ServedPath& path, std::string* crs) const;

  Limits limits_;
  WebMapConfig map_;
  LeafletFiles leaflet_;
  std::optional<AdminToken> admin_;
  std::map<std::string, std::unique_ptr<ServedRelease>> releases_;
};

}  // namespace gpdp::serve
