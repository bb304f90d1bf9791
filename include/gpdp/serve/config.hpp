#pragma once
// The configuration of `gpdp serve` (docs/serve.md): where to listen, which kept paths to serve,
// the admin token and the limits. A JSON file:
//   {"listen": "127.0.0.1:8080",
//    "releases": [{"id": "meuse-zinc", "release_dir": "out", "path": "zinc.gpdp",
//                  "data": "meuse.csv", "path_key_file": "zinc.key", "ledger": "ledger.sqlite"}],
//    "admin_token_file": "admin.token",
//    "limits": {"max_body_bytes": 65536, "max_points_per_request": 100, ...},
//    "map": {"tiles": "https://tile.example/{z}/{x}/{y}.png", "attribution": "…"}}
// Relative file names are taken relative to the config file's folder. Unknown keys, wrong types
// and unusable values are InputErrors naming the file and the key.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpdp::serve {

struct ListenAddress {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (the server reports the one it got)
};
// "HOST:PORT" (IPv4 or a name; "[::1]:PORT" for IPv6). InputError naming `where` otherwise.
ListenAddress parse_listen(const std::string& text, const std::string& where);

struct ReleaseConfig {
  std::string id;             // [a-z0-9][a-z0-9._-]{0,63}, not containing ".."
  std::string release_dir;    // the folder `gpdp release --out` wrote (certificate.json, map.png..)
  std::string path;           // the kept path file (`gpdp release --keep-path`)
  std::string data;           // the private data file of the release (SHA-256 checked)
  std::string path_key_file;  // key of an encrypted path file (empty: none)
  std::string path_passphrase_env;  // or: environment variable holding its passphrase
  std::string ledger;               // empty: the ledger named in the path file
  // Tests only: draw new points from a seeded generator — reproducible, NOT PRIVATE.
  std::optional<std::uint64_t> insecure_seed;
};

struct Limits {
  std::size_t max_body_bytes = 64 * 1024;
  std::size_t max_points_per_request = 100;
  // Cap on the points a kept path may hold (its release's own points included): a memory and
  // policy setting. Each path keeps the Cholesky factor of its answered points' covariance,
  // about 4 k² bytes (400 MB at 10⁴), built at start in O(k³) and extended per query in O(k²)
  // (docs/serve.md); the path file grows with it too.
  std::size_t max_points_per_path = 10000;
  // New points one client address may add to one path: a token bucket of this many points,
  // refilled over new_points_window_s (0 = no quota). Points already answered never count.
  std::size_t new_points_per_client = 100;
  int new_points_window_s = 3600;
  double rate_per_second = 10.0;  // per client address, token bucket; 0 = no rate limit
  double rate_burst = 20.0;
  // Whole-request deadline: the request line, headers and body must arrive within this many
  // seconds of its first byte (a client trickling bytes gains nothing).
  int read_timeout_s = 5;
  int write_timeout_s = 5;       // the whole response must be taken within this
  int keep_alive_timeout_s = 5;  // idle wait for the next request on a connection
  std::size_t max_requests_per_connection = 1000;
  std::size_t max_header_bytes = 16 * 1024;      // request line and headers together (431)
  std::size_t max_headers = 64;                  // header fields (431)
  std::size_t max_connections = 512;             // open connections in all (503 past it)
  std::size_t max_connections_per_address = 32;  // per client address (429 past it)
  // How long a query waits for its path (queries to one path run one at a time) before 503.
  int query_wait_s = 10;
  int threads = 8;                      // workers that answer queries
  std::size_t max_queued_queries = 64;  // queries waiting for a worker (503 past it)
};

// The map page's web map: where Leaflet is installed, and an optional base map of tiles under the
// released layers (none by default: the page then needs nothing but this server).
struct WebMapConfig {
  std::string leaflet_dir = "/usr/share/javascript/leaflet";  // Debian's libjs-leaflet
  // A tile URL template "https://host/{z}/{x}/{y}.png" (Web Mercator tiles, as Leaflet takes them)
  // and the attribution its provider requires; empty: no base map.
  std::string tiles;
  std::string attribution;
};

struct ServeConfig {
  std::string source;  // the config file
  ListenAddress listen;
  std::vector<ReleaseConfig> releases;
  std::string admin_token_file;  // empty: no admin endpoints
  Limits limits;
  WebMapConfig map;
};

// Whether `id` is a usable release id (see ReleaseConfig::id).
bool valid_release_id(const std::string& id);

ServeConfig parse_serve_config(const std::string& text, const std::string& source,
                               const std::string& base_dir);
ServeConfig load_serve_config(const std::string& path);

}  // namespace gpdp::serve
