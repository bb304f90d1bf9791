#include "gpdp/serve/config.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"

namespace gpdp::serve {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Checks a JSON object's keys against the known ones (InputError naming the unknown key).
void known_keys(const json& obj, const std::set<std::string>& known, const std::string& where) {
  require(obj.is_object(), fmt::format("{}: must be a JSON object", where));
  for (const auto& [key, value] : obj.items()) {
    if (known.count(key) != 0) continue;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    throw InputError(fmt::format("{}: unknown key '{}' (known: {})", where, key, list));
  }
}

std::string string_at(const json& obj, const std::string& key, const std::string& where) {
  const json& v = obj.at(key);
  require(v.is_string() && !v.get<std::string>().empty(),
          fmt::format("{}: key '{}' must be a non-empty string", where, key));
  return v.get<std::string>();
}

// A file name from the config, relative names taken from the config's folder.
std::string file_at(const json& obj, const std::string& key, const std::string& where,
                    const std::string& base_dir) {
  const fs::path p(string_at(obj, key, where));
  return (p.is_absolute() ? p : fs::path(base_dir) / p).lexically_normal().string();
}

double number_at(const json& obj, const std::string& key, const std::string& where, double lo,
                 double hi) {
  const json& v = obj.at(key);
  require(v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= lo &&
              v.get<double>() <= hi,
          fmt::format("{}: key '{}' must be a number in [{}, {}]", where, key, lo, hi));
  return v.get<double>();
}

long integer_at(const json& obj, const std::string& key, const std::string& where, long lo,
                long hi) {
  const json& v = obj.at(key);
  require(v.is_number_integer() && v.get<long>() >= lo && v.get<long>() <= hi,
          fmt::format("{}: key '{}' must be an integer in [{}, {}]", where, key, lo, hi));
  return v.get<long>();
}

Limits parse_limits(const json& j, const std::string& where) {
  known_keys(j,
             {"max_body_bytes", "max_points_per_request", "max_points_per_path",
              "new_points_per_client", "new_points_window_s", "rate_per_second", "rate_burst",
              "read_timeout_s", "write_timeout_s", "keep_alive_timeout_s",
              "max_requests_per_connection", "max_header_bytes", "max_headers", "max_connections",
              "max_connections_per_address", "query_wait_s", "threads", "max_queued_queries"},
             where);
  Limits l;
  auto size = [&](const char* key, std::size_t& out, long lo, long hi) {
    if (j.contains(key)) out = static_cast<std::size_t>(integer_at(j, key, where, lo, hi));
  };
  auto integer = [&](const char* key, int& out, long lo, long hi) {
    if (j.contains(key)) out = static_cast<int>(integer_at(j, key, where, lo, hi));
  };
  size("max_body_bytes", l.max_body_bytes, 64, 64L << 20);
  size("max_points_per_request", l.max_points_per_request, 1, 100000);
  size("max_points_per_path", l.max_points_per_path, 1, 10000000);
  if (j.contains("rate_per_second"))
    l.rate_per_second = number_at(j, "rate_per_second", where, 0, 1e6);
  if (j.contains("rate_burst")) l.rate_burst = number_at(j, "rate_burst", where, 1, 1e6);
  integer("read_timeout_s", l.read_timeout_s, 1, 3600);
  integer("write_timeout_s", l.write_timeout_s, 1, 3600);
  integer("keep_alive_timeout_s", l.keep_alive_timeout_s, 1, 3600);
  integer("query_wait_s", l.query_wait_s, 1, 3600);
  integer("threads", l.threads, 1, 1024);
  size("new_points_per_client", l.new_points_per_client, 0, 10000000);
  integer("new_points_window_s", l.new_points_window_s, 1, 30 * 86400);
  size("max_requests_per_connection", l.max_requests_per_connection, 1, 1000000);
  size("max_header_bytes", l.max_header_bytes, 1024, 1L << 20);
  size("max_headers", l.max_headers, 8, 10000);
  size("max_connections", l.max_connections, 1, 100000);
  size("max_connections_per_address", l.max_connections_per_address, 1, 100000);
  size("max_queued_queries", l.max_queued_queries, 1, 100000);
  return l;
}

ReleaseConfig parse_release(const json& j, const std::string& where, const std::string& base) {
  known_keys(j,
             {"id", "release_dir", "path", "data", "path_key_file", "path_passphrase_env", "ledger",
              "insecure_seed"},
             where);
  for (const char* key : {"id", "release_dir", "path", "data"}) {
    require(j.contains(key), fmt::format("{}: key '{}' is required", where, key));
  }
  ReleaseConfig r;
  r.id = string_at(j, "id", where);
  require(valid_release_id(r.id),
          fmt::format("{}: id '{}' must be 1-64 characters of a-z, 0-9, '.', '_', '-', start "
                      "with a letter or digit and not contain '..'",
                      where, r.id));
  r.release_dir = file_at(j, "release_dir", where, base);
  r.path = file_at(j, "path", where, base);
  r.data = file_at(j, "data", where, base);
  if (j.contains("path_key_file")) r.path_key_file = file_at(j, "path_key_file", where, base);
  if (j.contains("path_passphrase_env"))
    r.path_passphrase_env = string_at(j, "path_passphrase_env", where);
  require(r.path_key_file.empty() || r.path_passphrase_env.empty(),
          fmt::format("{}: give path_key_file or path_passphrase_env, not both", where));
  if (j.contains("ledger")) r.ledger = file_at(j, "ledger", where, base);
  if (j.contains("insecure_seed")) {
    require(j["insecure_seed"].is_number_unsigned(),
            fmt::format("{}: key 'insecure_seed' must be a non-negative integer", where));
    r.insecure_seed = j["insecure_seed"].get<std::uint64_t>();
  }
  return r;
}

WebMapConfig parse_map(const json& j, const std::string& where, const std::string& base) {
  known_keys(j, {"leaflet_dir", "tiles", "attribution"}, where);
  WebMapConfig m;
  if (j.contains("leaflet_dir")) m.leaflet_dir = file_at(j, "leaflet_dir", where, base);
  if (j.contains("tiles")) {
    m.tiles = string_at(j, "tiles", where);
    const bool web = m.tiles.rfind("https://", 0) == 0 || m.tiles.rfind("http://", 0) == 0;
    require(web && m.tiles.find("{z}") != std::string::npos &&
                m.tiles.find("{x}") != std::string::npos &&
                m.tiles.find("{y}") != std::string::npos,
            fmt::format("{}: key 'tiles' must be an http(s) URL template with {{z}}, {{x}} and "
                        "{{y}}, e.g. https://tile.openstreetmap.org/{{z}}/{{x}}/{{y}}.png",
                        where));
  }
  if (j.contains("attribution")) m.attribution = string_at(j, "attribution", where);
  return m;
}

}  // namespace

bool valid_release_id(const std::string& id) {
  if (id.empty() || id.size() > 64 || id.find("..") != std::string::npos) return false;
  auto plain = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!plain(id[0])) return false;
  for (const char c : id) {
    if (!plain(c) && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

ListenAddress parse_listen(const std::string& text, const std::string& where) {
  const auto colon = text.rfind(':');
  const std::string bad =
      fmt::format("{}: '{}' must be HOST:PORT (e.g. 127.0.0.1:8080)", where, text);
  require(colon != std::string::npos && colon > 0 && colon + 1 < text.size(), bad);
  ListenAddress a;
  a.host = text.substr(0, colon);
  if (a.host.front() == '[' && a.host.back() == ']') a.host = a.host.substr(1, a.host.size() - 2);
  const char* first = text.data() + colon + 1;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, a.port);
  require(ec == std::errc() && ptr == last && a.port >= 0 && a.port <= 65535 && !a.host.empty(),
          bad);
  return a;
}

ServeConfig parse_serve_config(const std::string& text, const std::string& source,
                               const std::string& base_dir) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw InputError(fmt::format("{}: not valid JSON ({})", source, e.what()));
  }
  known_keys(doc, {"listen", "releases", "admin_token_file", "limits", "map"}, source);
  ServeConfig c;
  c.source = source;
  if (doc.contains("listen"))
    c.listen = parse_listen(string_at(doc, "listen", source), source + ": key 'listen'");
  require(doc.contains("releases") && doc["releases"].is_array() && !doc["releases"].empty(),
          fmt::format("{}: key 'releases' must be a non-empty array", source));
  std::set<std::string> ids;
  for (std::size_t i = 0; i < doc["releases"].size(); ++i) {
    const std::string where = fmt::format("{}: releases[{}]", source, i);
    c.releases.push_back(parse_release(doc["releases"][i], where, base_dir));
    require(ids.insert(c.releases.back().id).second,
            fmt::format("{}: id '{}' appears twice", where, c.releases.back().id));
  }
  if (doc.contains("admin_token_file"))
    c.admin_token_file = file_at(doc, "admin_token_file", source, base_dir);
  if (doc.contains("limits")) c.limits = parse_limits(doc["limits"], source + ": limits");
  if (doc.contains("map")) c.map = parse_map(doc["map"], source + ": map", base_dir);
  return c;
}

ServeConfig load_serve_config(const std::string& path) {
  const fs::path p(path);
  const std::string base = p.has_parent_path() ? p.parent_path().string() : ".";
  return parse_serve_config(io::read_file(path), path, base);
}

}  // namespace gpdp::serve
