#include "api.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "http_error.hpp"
#include "page.hpp"

namespace gpdp::serve {

using nlohmann::json;

namespace {

ApiResponse json_response(const json& j) {
  ApiResponse r;
  r.body = j.dump();
  return r;
}

// A release folder and its kept path, checked to belong together.
std::unique_ptr<ServedRelease> open_release(const ReleaseConfig& c, const Limits& limits) {
  auto r = std::make_unique<ServedRelease>();
  r->id = c.id;
  try {
    r->folder = ReleaseFolder::load(c.release_dir);
    r->path = std::make_unique<ServedPath>(c, limits);
    r->display = display_layer(r->folder);
  } catch (const Error& e) {
    throw InputError(fmt::format("release '{}': {}", c.id, e.what()));
  }
  const std::string kept = r->folder.certificate().value("kept_path_id", "");
  require(kept == r->path->path_id(),
          fmt::format("release '{}': {} is not the release of the kept path {} (its certificate "
                      "names kept path '{}', the file holds '{}')",
                      c.id, c.release_dir, c.path, kept, r->path->path_id()));
  return r;
}

json release_summary(const ServedRelease& r, const Limits& limits, const WebMapConfig& map) {
  const json& cert = r.folder.certificate();
  const json& g = cert.value("guarantee", json::object());
  const ServedPath& p = *r.path;
  json names = p.names();
  return {{"id", r.id},
          {"epsilon", g.value("epsilon", json(nullptr))},
          {"delta", g.value("delta", json(nullptr))},
          {"points_answered", p.points_answered()},
          {"max_points", p.max_points()},
          {"paths", p.paths()},
          {"dim", p.dim()},
          {"names", names},
          {"domain", p.domain().to_string()},
          {"crs", cert.contains("crs") && cert["crs"].is_object()
                      ? cert["crs"].value("declared", json(nullptr))
                      : json(nullptr)},
          {"files", r.folder.file_names()},
          {"private", cert.value("private", false) && p.is_private()},
          // What the map page needs: its layer, the base map, the limits it keeps to.
          {"display", r.display.has_value()},
          {"base_map", map.tiles.empty()
                           ? json(nullptr)
                           : json{{"tiles", map.tiles}, {"attribution", map.attribution}}},
          {"max_points_per_request", limits.max_points_per_request},
          {"new_points_per_client", limits.new_points_per_client}};
}

}  // namespace

ApiResponse error_response(int status, const std::string& message, int retry_after_s) {
  ApiResponse r;
  r.status = status;
  r.body = json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
  r.error = message;
  if (retry_after_s > 0) r.headers.emplace_back("Retry-After", std::to_string(retry_after_s));
  return r;
}

Api::Api(const ServeConfig& config)
    : limits_(config.limits),
      map_(config.map),
      leaflet_(LeafletFiles::load(config.map.leaflet_dir)) {
  if (!config.admin_token_file.empty()) admin_ = AdminToken::load(config.admin_token_file);
  for (const auto& c : config.releases) releases_[c.id] = open_release(c, limits_);
}

ServedRelease& Api::release(const std::string& id) const {
  const auto it = releases_.find(id);
  if (it == releases_.end()) throw HttpError(404, "no release with this id");
  return *it->second;
}

ApiResponse Api::health() const { return json_response({{"status", "ok"}}); }

ApiResponse Api::releases() const {
  json list = json::array();
  for (const auto& [id, r] : releases_) list.push_back(release_summary(*r, limits_, map_));
  return json_response(list);
}

ApiResponse Api::certificate(const std::string& id) const {
  ApiResponse r;
  r.body = release(id).folder.certificate_text();
  r.release = id;
  return r;
}

ApiResponse Api::file(const std::string& id, const std::string& name) const {
  const ServedRelease& rel = release(id);
  if (rel.display && (name == "display.png" || name == "display.json")) {
    ApiResponse r;
    r.body = name == "display.png" ? rel.display->png : rel.display->json;
    r.content_type = name == "display.png" ? "image/png" : "application/json";
    r.release = id;
    return r;
  }
  const PublicFile* f = rel.folder.file(name);
  if (f == nullptr) throw HttpError(404, "this release has no such file");
  ApiResponse r;
  r.body = f->content;
  r.content_type = f->media_type;
  r.release = id;
  return r;
}

Points Api::parse_points(const std::string& body, const ServedPath& path, std::string* crs) const {
  json doc;
  try {
    doc = json::parse(body);
  } catch (const json::exception&) {
    throw HttpError(400, "the body is not valid JSON; send {\"points\": [[x1, x2], ...]}");
  }
  const bool with_crs = doc.is_object() && doc.contains("crs");
  if (!doc.is_object() || !doc.contains("points") || !doc["points"].is_array() ||
      doc.size() != (with_crs ? 2u : 1u) || (with_crs && !doc["crs"].is_string())) {
    throw HttpError(400,
                    "the body must be {\"points\": [[x1, x2], ...]}, optionally with \"crs\": "
                    "\"AUTH:CODE\", and nothing else");
  }
  *crs = with_crs ? doc["crs"].get<std::string>() : "";
  const json& pts = doc["points"];
  if (pts.empty()) throw HttpError(400, "'points' is empty");
  if (pts.size() > limits_.max_points_per_request) {
    throw HttpError(413, fmt::format("{} points in one request; the limit is {}", pts.size(),
                                     limits_.max_points_per_request));
  }
  const auto d = static_cast<std::size_t>(path.dim());
  Points xs(static_cast<Eigen::Index>(pts.size()), path.dim());
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const json& p = pts[i];
    if (!p.is_array() || p.size() != d) {
      throw HttpError(400, fmt::format("point {}: must be an array of {} numbers ({})", i + 1, d,
                                       fmt::join(path.names(), ", ")));
    }
    for (std::size_t j = 0; j < d; ++j) {
      if (!p[j].is_number() || !std::isfinite(p[j].get<double>()))
        throw HttpError(400, fmt::format("point {}: coordinates must be finite numbers", i + 1));
      xs(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = p[j].get<double>();
    }
  }
  return xs;
}

ApiResponse Api::query(const std::string& id, const std::string& body, const std::string& client) {
  ServedRelease& r = release(id);
  std::string crs;
  Points xs = parse_points(body, *r.path, &crs);
  if (!crs.empty()) xs = r.path->declared_points(xs, crs);
  const PathAnswer a = r.path->answer(xs, std::chrono::seconds(limits_.query_wait_s), client);
  ++r.queries;
  auto column = [](const Eigen::MatrixXd& m, Eigen::Index c) {
    return std::vector<double>(m.col(c).begin(), m.col(c).end());
  };
  json out{{"release", id},
           {"points", xs.rows()},
           {"new_points", a.new_points},
           {"paths", a.draw.cols()},
           {"draw", column(a.draw, 0)},
           {"value", column(a.value, 0)},
           {"private", r.folder.certificate().value("private", false) && r.path->is_private()}};
  if (!crs.empty()) {
    json coordinates = json::array();
    for (Eigen::Index i = 0; i < xs.rows(); ++i)
      coordinates.push_back(std::vector<double>(xs.row(i).begin(), xs.row(i).end()));
    out["coordinates"] = coordinates;  // the points as the release's CRS has them
  }
  if (a.draw.cols() > 1) {
    json draws = json::array(), values = json::array();
    for (Eigen::Index i = 0; i < a.draw.rows(); ++i) {
      draws.push_back(std::vector<double>(a.draw.row(i).begin(), a.draw.row(i).end()));
      values.push_back(std::vector<double>(a.value.row(i).begin(), a.value.row(i).end()));
    }
    out["draws"] = draws;
    out["values"] = values;
  }
  ApiResponse resp = json_response(out);
  resp.release = id;
  resp.points = xs.rows();
  resp.new_points = a.new_points;
  return resp;
}

ApiResponse Api::admin_status(const std::string& authorization) const {
  if (!admin_ || !admin_->authorizes(authorization)) {
    ApiResponse r = error_response(401, "admin endpoints need Authorization: Bearer <token>");
    r.headers.emplace_back("WWW-Authenticate", "Bearer");
    return r;
  }
  json list = json::array();
  for (const auto& [id, r] : releases_) {
    json s = release_summary(*r, limits_, map_);
    s["queries"] = r->queries.load();
    list.push_back(s);
  }
  return json_response({{"releases", list},
                        {"limits",
                         {{"max_body_bytes", limits_.max_body_bytes},
                          {"max_points_per_request", limits_.max_points_per_request},
                          {"max_points_per_path", limits_.max_points_per_path},
                          {"new_points_per_client", limits_.new_points_per_client},
                          {"new_points_window_s", limits_.new_points_window_s},
                          {"rate_per_second", limits_.rate_per_second},
                          {"rate_burst", limits_.rate_burst}}}});
}

ApiResponse Api::leaflet(const std::string& name) const {
  const PublicFile* f = leaflet_.file(name);
  if (f == nullptr) throw HttpError(404, "no such file of the map library");
  ApiResponse r;
  r.body = f->content;
  r.content_type = f->media_type;
  return r;
}

ApiResponse Api::page() const {
  ApiResponse r;
  r.content_type = "text/html; charset=utf-8";
  r.body = std::string(index_html());
  return r;
}

}  // namespace gpdp::serve
