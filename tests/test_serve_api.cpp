// `gpdp serve` over real HTTP on 127.0.0.1 (docs/serve.md): the API contract, released grid nodes
// answered with draws.csv's values, re-asked points answered identically, atomic batches, every
// kind of bad request answered 4xx while the server keeps serving, the admin token, and nothing
// private in any public response or log line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "gpdp/io/csv.hpp"
#include "support/paths.hpp"
#include "support/serve/release_fixture.hpp"
#include "support/serve/server_process.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;

const std::string kToken = "0123456789abcdef0123456789abcdef-admin";

class ServeApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir = std::make_unique<TempDir>();
    const std::string data = dir->file("d.csv");
    write_text(data, serve_test_data(40, 7));
    grid = make_served_release(*dir, "grid", data, "--grid2d 0:1:12,0:1:12");
    write_text(dir->file("admin.token"), kToken + "\n");
    std::filesystem::permissions(dir->file("admin.token"), std::filesystem::perms::owner_read |
                                                               std::filesystem::perms::owner_write);
    const std::string config = write_serve_config(
        *dir, {release_entry(grid)}, R"({"rate_per_second": 0, "max_body_bytes": 4096})",
        "serve.json", R"("admin_token_file": "admin.token")");
    server = std::make_unique<ServerProcess>(config);
    ASSERT_TRUE(server->running()) << server->stderr_text();
  }
  static void TearDownTestSuite() {
    server.reset();
    dir.reset();
  }
  static json post_points(const json& points, int want_status = 200) {
    const auto r = server->post("/v1/releases/grid/query", json{{"points", points}}.dump());
    EXPECT_EQ(r.status, want_status) << r.body;
    return json::parse(r.body);
  }
  static long answered() {
    return json::parse(server->get("/v1/releases").body)[0]["points_answered"].get<long>();
  }

  static std::unique_ptr<TempDir> dir;
  static ServedRelease grid;
  static std::unique_ptr<ServerProcess> server;
};
std::unique_ptr<TempDir> ServeApi::dir;
ServedRelease ServeApi::grid;
std::unique_ptr<ServerProcess> ServeApi::server;

TEST_F(ServeApi, HealthReleasesCertificateAndFiles) {
  EXPECT_EQ(json::parse(server->get("/v1/health").body), (json{{"status", "ok"}}));
  const auto list = json::parse(server->get("/v1/releases").body);
  ASSERT_EQ(list.size(), 1u);
  const auto cert = json::parse(read_text(grid.out + "/certificate.json"));
  EXPECT_EQ(list[0]["id"], "grid");
  EXPECT_EQ(list[0]["epsilon"], cert["guarantee"]["epsilon"]);
  EXPECT_EQ(list[0]["delta"], cert["guarantee"]["delta"]);
  EXPECT_GE(list[0]["points_answered"].get<long>(), 144);
  EXPECT_EQ(list[0]["private"], true);
  const auto c = server->get("/v1/releases/grid/certificate");
  EXPECT_EQ(c.status, 200);
  EXPECT_EQ(c.body, read_text(grid.out + "/certificate.json"));
  EXPECT_EQ(c.headers.at("Content-Type"), "application/json");
  for (const std::string name : {"map.png", "map.tif", "draws.csv", "excursion-grid.json"}) {
    const auto f = server->get("/v1/releases/grid/" + name);
    EXPECT_EQ(f.status, 200) << name;
    EXPECT_EQ(f.body, read_text(grid.out + "/" + name)) << name;
  }
  EXPECT_EQ(server->get("/v1/releases/grid/map.png").headers.at("Content-Type"), "image/png");
  const auto page = server->get("/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<div id=\"map\">"), std::string::npos);
  EXPECT_NE(page.body.find("/static/leaflet/leaflet.js"), std::string::npos);
  // Self-contained: no script, style or image from anywhere else.
  EXPECT_EQ(page.body.find("http://"), std::string::npos);
  EXPECT_EQ(page.body.find("https://"), std::string::npos);
}

TEST_F(ServeApi, MapPageLayerLibraryAndCoordinates) {
  // What the page needs, from the release list: its layer, no base map, the limits it keeps to.
  const auto list = json::parse(server->get("/v1/releases").body);
  EXPECT_EQ(list[0]["display"], true);
  EXPECT_EQ(list[0]["base_map"], nullptr);
  EXPECT_EQ(list[0]["max_points_per_request"], 100);
  // The layer: the grid's frame (no CRS: the release's own coordinates), the released values'
  // range and the threshold, the excursion polygons to draw over it.
  const auto dj = server->get("/v1/releases/grid/display.json");
  ASSERT_EQ(dj.status, 200);
  const json d = json::parse(dj.body);
  const double half = 0.5 / 11;  // half a step of 0:1:12
  EXPECT_EQ(d["lat_lng"], false);
  EXPECT_NEAR(d["bounds"][0][0].get<double>(), -half, 1e-12);
  EXPECT_NEAR(d["bounds"][0][1].get<double>(), -half, 1e-12);
  EXPECT_NEAR(d["bounds"][1][0].get<double>(), 1 + half, 1e-12);
  EXPECT_NEAR(d["bounds"][1][1].get<double>(), 1 + half, 1e-12);
  EXPECT_EQ(d["width"], 12);
  EXPECT_EQ(d["polygons"], "excursion-grid.json");
  const auto cert = json::parse(read_text(grid.out + "/certificate.json"));
  EXPECT_EQ(d["threshold"], cert["threshold"]["t"]);
  const Eigen::MatrixXd value = io::read_csv(grid.out + "/draws.csv").numeric({"value_1"});
  EXPECT_EQ(d["min"].get<double>(), value.minCoeff());
  EXPECT_EQ(d["max"].get<double>(), value.maxCoeff());
  const auto png = server->get("/v1/releases/grid/display.png");
  EXPECT_EQ(png.status, 200);
  EXPECT_EQ(png.headers.at("Content-Type"), "image/png");
  EXPECT_EQ(png.body.substr(0, 4), "\x89PNG");
  // Leaflet, from Debian's libjs-leaflet, byte for byte; nothing else under /static.
  const auto js = server->get("/static/leaflet/leaflet.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.body, read_text("/usr/share/javascript/leaflet/leaflet.js"));
  EXPECT_EQ(js.headers.at("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(server->get("/static/leaflet/images/layers.png").status, 200);
  EXPECT_EQ(server->get("/static/leaflet/leaflet.min.js").status, 404);
  EXPECT_EQ(server->get("/static/leaflet/../../../etc/passwd").status, 404);
  EXPECT_EQ(server->get("/static/leaflet/").status, 404);
  // Points in another CRS need a release with one; a malformed "crs" is a 400 like any bad body.
  const auto r =
      server->post("/v1/releases/grid/query", R"({"points": [[0.5, 0.5]], "crs": "EPSG:4326"})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("no CRS"), std::string::npos) << r.body;
  EXPECT_EQ(
      server->post("/v1/releases/grid/query", R"({"points": [[0.5, 0.5]], "crs": 4326})").status,
      400);
}

TEST_F(ServeApi, ReleasedGridNodesReturnDrawsCsvValuesExactly) {
  const auto csv = io::read_csv(grid.out + "/draws.csv");
  const Eigen::MatrixXd x = csv.numeric({"x1", "x2"});
  const Eigen::MatrixXd draw = csv.numeric({"draw_1"}), value = csv.numeric({"value_1"});
  ASSERT_EQ(x.rows(), 144);
  for (Eigen::Index start = 0; start < x.rows(); start += 50) {
    json pts = json::array();
    const Eigen::Index end = std::min<Eigen::Index>(x.rows(), start + 50);
    for (Eigen::Index i = start; i < end; ++i) pts.push_back({x(i, 0), x(i, 1)});
    const json a = post_points(pts);
    EXPECT_EQ(a["new_points"], 0);
    for (Eigen::Index i = start; i < end; ++i) {
      const auto k = static_cast<std::size_t>(i - start);
      ASSERT_EQ(a["draw"][k].get<double>(), draw(i, 0)) << i;  // exact, not approximate
      ASSERT_EQ(a["value"][k].get<double>(), value(i, 0)) << i;
    }
  }
}

TEST_F(ServeApi, ReaskedPointsReturnIdenticalValues) {
  const json pts = {{0.31, 0.72}, {0.3101, 0.72}, {0.9, 0.05}};
  const long before = answered();
  const json first = post_points(pts);
  EXPECT_EQ(first["new_points"], 3);
  EXPECT_EQ(answered(), before + 3);
  const json again = post_points({{0.9, 0.05}, {0.31, 0.72}, {0.31, 0.72}, {0.3101, 0.72}});
  EXPECT_EQ(again["new_points"], 0);
  EXPECT_EQ(again["value"][0], first["value"][2]);
  EXPECT_EQ(again["value"][1], first["value"][0]);
  EXPECT_EQ(again["value"][2], first["value"][0]);
  EXPECT_EQ(again["value"][3], first["value"][1]);
  EXPECT_EQ(answered(), before + 3);
}

TEST_F(ServeApi, BatchIsAtomic) {
  const long before = answered();
  const json e = post_points({{0.11, 0.12}, {0.2, 1.5}}, 400);
  EXPECT_NE(e["error"].get<std::string>().find("outside the declared domain"), std::string::npos);
  EXPECT_EQ(answered(), before);
  // The good point of the refused batch was not drawn: asking it now draws it.
  EXPECT_EQ(post_points({{0.11, 0.12}})["new_points"], 1);
}

TEST_F(ServeApi, BadRequestsAre4xxAndTheServerKeepsServing) {
  struct Case {
    std::string method, path, body;
    int status;
  };
  const std::string q = "/v1/releases/grid/query";
  const std::vector<Case> cases = {
      {"POST", q, "{\"points\": [[0.1, 0.2]", 400},             // malformed JSON
      {"POST", q, "", 400},                                     // empty body
      {"POST", q, "[[0.1, 0.2]]", 400},                         // not an object
      {"POST", q, R"({"points": [[0.1, 0.2]], "x": 1})", 400},  // extra key
      {"POST", q, R"({"points": []})", 400},
      {"POST", q, R"({"points": [[0.1]]})", 400},         // wrong dimension
      {"POST", q, R"({"points": [[0.1, "0.2"]]})", 400},  // not a number
      {"POST", q, R"({"points": [[NaN, 0.2]]})", 400},    // NaN is not JSON
      {"POST", q, R"({"points": [[1e999, 0.2]]})", 400},  // overflows to infinity
      {"POST", q, R"({"points": [[-0.01, 0.2]]})", 400},  // outside the domain
      {"POST", q, R"({"points": [[0.5, 1.0000001]]})", 400},
      {"POST", q, std::string(5000, ' ') + "{}", 413},  // body over max_body_bytes
      {"POST", "/v1/releases/nope/query", R"({"points": [[0.1, 0.2]]})", 404},
      {"GET", "/v1/releases/nope/certificate", "", 404},
      {"GET", "/v1/releases/grid/nope.png", "", 404},
      {"GET", "/v1/releases/grid/certificate.json", "", 404},  // only through /certificate
      {"GET", "/v1/releases/grid/grid.gpdp", "", 404},
      {"GET", "/v1/releases/grid/d.csv", "", 404},
      {"GET", "/v1/releases/..%2F..%2Fetc%2Fpasswd/certificate", "", 404},
      {"GET", "/v1/releases/grid/..%2Fgrid.gpdp", "", 404},
      {"GET", "/v1/releases/grid/..%2F..%2Fd.csv", "", 404},
      {"GET", "/v1/releases/grid/%2E%2E%2Fl.sqlite", "", 404},
      {"GET", "/v1/releases/grid/..", "", 404},
      {"GET", "/v1/nothing", "", 404},
  };
  for (const auto& c : cases) {
    const auto r = http_request(server->port(), c.method, c.path, c.body,
                                {{"Content-Type", "application/json"}});
    EXPECT_EQ(r.status, c.status) << c.method << " " << c.path << " " << c.body.substr(0, 60);
    EXPECT_NO_THROW({
      const auto j = json::parse(r.body);
      EXPECT_TRUE(j["error"].is_string());
    }) << r.body;
    ASSERT_EQ(server->get("/v1/health").status, 200) << "after " << c.path;
  }
}

TEST_F(ServeApi, TraversalInTheRawRequestLineReachesNoFile) {
  for (const std::string target :
       {"/v1/releases/grid/../../grid.gpdp", "/v1/releases/grid/../../../etc/passwd",
        "/v1/releases/../../etc/passwd", "/../d.csv", "//etc/passwd",
        "/v1/releases/grid/%2e%2e/%2e%2e/d.csv"}) {
    const std::string reply = raw_request(server->port(), "GET " + target +
                                                              " HTTP/1.1\r\nHost: x\r\n"
                                                              "Connection: close\r\n\r\n");
    EXPECT_NE(reply.find("HTTP/1.1 404"), std::string::npos) << target << ": " << reply;
    EXPECT_EQ(reply.find("root:"), std::string::npos);
    EXPECT_EQ(reply.find("GPDPPATH"), std::string::npos);
  }
}

TEST_F(ServeApi, MalformedHttpIsRefusedAndTheServerKeepsServing) {
  EXPECT_NE(raw_request(server->port(), "NOT HTTP AT ALL\r\nConnection: close\r\n\r\n").find("400"),
            std::string::npos);
  // A body announced larger than the limit is refused before it is read.
  const std::string big =
      "POST /v1/releases/grid/query HTTP/1.1\r\nHost: x\r\n"
      "Connection: close\r\nContent-Length: 100000000\r\n\r\n{";
  EXPECT_NE(raw_request(server->port(), big).find("HTTP/1.1 413"), std::string::npos);
  // A chunked body (whose length is not known before it is read) is refused unread.
  std::string chunked =
      "POST /v1/releases/grid/query HTTP/1.1\r\nHost: x\r\n"
      "Transfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 10; ++i) chunked += "400\r\n" + std::string(1024, 'a') + "\r\n";
  chunked += "0\r\n\r\n";
  const std::string reply = raw_request(server->port(), chunked);
  EXPECT_NE(reply.find("HTTP/1.1 411"), std::string::npos) << reply.substr(0, 200);
  EXPECT_EQ(server->get("/v1/health").status, 200);
}

TEST_F(ServeApi, AdminNeedsTheBearerToken) {
  const int port = server->port();
  const auto none = http_request(port, "GET", "/v1/admin/status");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(none.headers.at("WWW-Authenticate"), "Bearer");
  EXPECT_EQ(http_request(port, "GET", "/v1/admin/status", "",
                         {{"Authorization", "Bearer " + kToken.substr(1)}})
                .status,
            401);
  EXPECT_EQ(http_request(port, "GET", "/v1/admin/status", "",
                         {{"Authorization", "Bearer " + kToken + "x"}})
                .status,
            401);
  EXPECT_EQ(http_request(port, "GET", "/v1/admin/status", "", {{"Authorization", kToken}}).status,
            401);
  EXPECT_EQ(
      http_request(port, "GET", "/v1/admin/status", "", {{"Authorization", "Bearer "}}).status,
      401);
  const auto ok =
      http_request(port, "GET", "/v1/admin/status", "", {{"Authorization", "Bearer " + kToken}});
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(json::parse(ok.body)["releases"][0]["id"], "grid");
}

TEST_F(ServeApi, NothingPrivateInResponsesOrLogs) {
  post_points({{0.123456789, 0.987654321}});
  std::string everything;
  for (const std::string path :
       {"/", "/v1/health", "/v1/releases", "/v1/releases/grid/certificate",
        "/v1/releases/grid/draws.csv", "/v1/releases/grid/excursion-grid.json"})
    everything += server->get(path).body;
  // No response value of the private data, no kept-path state, nothing marked not for release.
  const auto data = io::read_csv(grid.data);
  const Eigen::MatrixXd y = data.numeric({"y"});
  for (Eigen::Index i = 0; i < y.rows(); ++i)
    EXPECT_EQ(everything.find(io::format_number(y(i, 0))), std::string::npos) << y(i, 0);
  EXPECT_EQ(everything.find("NOT FOR RELEASE"), std::string::npos);
  EXPECT_EQ(everything.find("NOT_FOR_RELEASE"), std::string::npos);
  EXPECT_EQ(everything.find("gpdp-path-1"), std::string::npos);
  // One log line per request, with counts but no coordinates or values.
  const std::string log = server->stdout_text_with("POST \"/v1/releases/grid/query\" 200");
  EXPECT_NE(log.find("POST \"/v1/releases/grid/query\" 200"), std::string::npos) << log;
  EXPECT_NE(log.find("points=1 new=1"), std::string::npos);
  EXPECT_EQ(log.find("0.123456789"), std::string::npos);
}

TEST(ServeLogs, JsonLogsAreOneObjectPerLine) {
  TempDir dir;
  const std::string data = dir.file("d.csv");
  write_text(data, serve_test_data(20, 3));
  const auto r = make_served_release(dir, "p", data, "--grid2d 0:1:5,0:1:5");
  ServerProcess server(write_serve_config(dir, {release_entry(r)}), {"--json-logs"});
  ASSERT_TRUE(server.running()) << server.stderr_text();
  server.get("/v1/health");
  server.get("/v1/releases/p/certificate");
  server.post("/v1/releases/p/query", R"({"points": [[0.4, 0.3]]})");
  server.post("/v1/releases/p/query", "{");
  server.stop(SIGTERM);
  EXPECT_EQ(server.exit_code(), 0);
  std::vector<json> lines;
  std::istringstream in(server.stdout_text());
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 4u) << server.stdout_text();
  // Each line is written when its response has gone: concurrent requests may log in either order.
  auto with_status = [&](int status) {
    for (const auto& l : lines)
      if (l["method"] == "POST" && l["status"] == status) return l;
    return json();
  };
  const json ok = with_status(200), bad = with_status(400);
  EXPECT_EQ(ok["release"], "p");
  EXPECT_EQ(ok["points"], 1);
  EXPECT_EQ(ok["new_points"], 1);
  EXPECT_TRUE(bad["error"].is_string());
}

}  // namespace
}  // namespace gpdp::test
