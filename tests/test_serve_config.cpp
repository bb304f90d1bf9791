// The parts of `gpdp serve` that need no socket: the config reader (every bad value named), the
// per-client token bucket, the constant-time admin token, the request log line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/serve/admin_token.hpp"
#include "gpdp/serve/config.hpp"
#include "gpdp/serve/rate_limiter.hpp"
#include "gpdp/serve/request_log.hpp"
#include "support/paths.hpp"

namespace gpdp::serve {
namespace {

const std::string kRelease =
    R"({"id": "meuse-zinc", "release_dir": "out", "path": "p.gpdp", "data": "/d/meuse.csv"})";

std::string config_with(const std::string& release, const std::string& rest = "") {
  return fmt::format(R"({{"releases": [{}]{}}})", release, rest);
}

void expect_error(const std::string& text, const std::string& fragment) {
  try {
    parse_serve_config(text, "serve.json", "/etc/gpdp");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("serve.json"), std::string::npos) << e.what();
  }
}

TEST(ServeConfig, ReadsReleasesLimitsAndResolvesRelativeFiles) {
  const auto c = parse_serve_config(
      config_with(kRelease, R"(, "listen": "0.0.0.0:9000", "admin_token_file": "tok",
                  "limits": {"max_points_per_request": 7, "rate_per_second": 0.5})"),
      "serve.json", "/etc/gpdp");
  EXPECT_EQ(c.listen.host, "0.0.0.0");
  EXPECT_EQ(c.listen.port, 9000);
  ASSERT_EQ(c.releases.size(), 1u);
  EXPECT_EQ(c.releases[0].release_dir, "/etc/gpdp/out");
  EXPECT_EQ(c.releases[0].path, "/etc/gpdp/p.gpdp");
  EXPECT_EQ(c.releases[0].data, "/d/meuse.csv");
  EXPECT_EQ(c.admin_token_file, "/etc/gpdp/tok");
  EXPECT_EQ(c.limits.max_points_per_request, 7u);
  EXPECT_EQ(c.limits.rate_per_second, 0.5);
  EXPECT_EQ(c.limits.max_body_bytes, Limits{}.max_body_bytes);
}

TEST(ServeConfig, NamesEveryBadValue) {
  expect_error("{", "not valid JSON");
  expect_error(R"({"releases": []})", "'releases' must be a non-empty array");
  expect_error(config_with(kRelease, R"(, "listen": "localhost")"), "HOST:PORT");
  expect_error(config_with(kRelease, R"(, "listen": "127.0.0.1:70000")"), "HOST:PORT");
  expect_error(config_with(kRelease, R"(, "port": 1)"), "unknown key 'port'");
  expect_error(config_with(kRelease, R"(, "limits": {"max_points": 1})"),
               "unknown key 'max_points'");
  expect_error(config_with(kRelease, R"(, "limits": {"max_body_bytes": -1})"), "max_body_bytes");
  expect_error(config_with(kRelease, R"(, "limits": {"rate_per_second": "fast"})"),
               "rate_per_second");
  expect_error(config_with(R"({"id": "a", "release_dir": "o", "path": "p"})"),
               "key 'data' is required");
  expect_error(config_with(kRelease + ", " + kRelease), "appears twice");
  expect_error(config_with(R"({"id": "a", "release_dir": "o", "path": "p", "data": "d",
                              "path_key_file": "k", "path_passphrase_env": "V"})"),
               "not both");
  for (const std::string id : {"../x", "a/b", "", "A", ".hidden", "a..b", "a b", "é"}) {
    expect_error(config_with(fmt::format(
                     R"({{"id": "{}", "release_dir": "o", "path": "p", "data": "d"}})", id)),
                 "id");
  }
}

TEST(ServeConfig, WebMapOfThePage) {
  const auto plain = parse_serve_config(config_with(kRelease), "serve.json", "/etc/gpdp");
  EXPECT_EQ(plain.map.leaflet_dir, "/usr/share/javascript/leaflet");  // Debian's libjs-leaflet
  EXPECT_EQ(plain.map.tiles, "");                                     // no base map
  const auto c = parse_serve_config(
      config_with(kRelease, R"(, "map": {"tiles": "https://tiles.example/{z}/{x}/{y}.png",
                  "attribution": "© the tile makers", "leaflet_dir": "leaflet"})"),
      "serve.json", "/etc/gpdp");
  EXPECT_EQ(c.map.tiles, "https://tiles.example/{z}/{x}/{y}.png");
  EXPECT_EQ(c.map.attribution, "© the tile makers");
  EXPECT_EQ(c.map.leaflet_dir, "/etc/gpdp/leaflet");
  expect_error(config_with(kRelease, R"(, "map": {"tiles": "tiles.example/{z}/{x}/{y}.png"})"),
               "'tiles' must be an http(s) URL template");
  expect_error(config_with(kRelease, R"(, "map": {"tiles": "https://tiles.example/{z}.png"})"),
               "{z}, {x} and {y}");
  expect_error(config_with(kRelease, R"(, "map": {"cdn": "https://x"})"), "unknown key 'cdn'");
}

TEST(ServeConfig, ReleaseIds) {
  EXPECT_TRUE(valid_release_id("meuse-zinc"));
  EXPECT_TRUE(valid_release_id("r.2024_01"));
  EXPECT_FALSE(valid_release_id(std::string(65, 'a')));
  EXPECT_FALSE(valid_release_id(".."));
  EXPECT_FALSE(valid_release_id("-a"));
}

TEST(ServeRateLimiter, BurstThenRefillPerClient) {
  using namespace std::chrono_literals;
  RateLimiter limit(2.0, 3.0);
  const auto t0 = RateLimiter::Clock::time_point{} + 1000s;
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limit.allow("a", t0));
  double retry = 0;
  EXPECT_FALSE(limit.allow("a", t0, &retry));
  EXPECT_DOUBLE_EQ(retry, 0.5);
  EXPECT_TRUE(limit.allow("b", t0));  // another client has its own bucket
  EXPECT_FALSE(limit.allow("a", t0 + 400ms));
  EXPECT_TRUE(limit.allow("a", t0 + 500ms));
  // Idle buckets are forgotten once full again (memory stays bounded).
  EXPECT_TRUE(limit.allow("c", t0 + 10s));
  EXPECT_EQ(limit.clients(), 1u);
  RateLimiter off(0.0, 1.0);
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(off.allow("a", t0));
}

TEST(ServeAdminToken, OnlyTheExactBearerTokenAuthorizes) {
  const std::string secret = "s3cret-s3cret-s3cret-s3cret-s3cret";
  const auto token = AdminToken::from_secret(secret);
  EXPECT_TRUE(token.authorizes("Bearer " + secret));
  EXPECT_FALSE(token.authorizes(secret));
  EXPECT_FALSE(token.authorizes("Bearer " + secret + " "));
  EXPECT_FALSE(token.authorizes("bearer " + secret));
  EXPECT_FALSE(token.authorizes("Bearer " + secret.substr(0, secret.size() - 1)));
  EXPECT_FALSE(token.authorizes("Bearer "));
  EXPECT_FALSE(token.authorizes(""));
  EXPECT_FALSE(AdminToken::from_secret("").authorizes("Bearer "));
}

TEST(ServeAdminToken, FileMustBePrivateAndLongEnough) {
  test::TempDir dir;
  namespace fs = std::filesystem;
  const std::string file = dir.file("token");
  test::write_text(file, std::string(40, 'k') + "\n");
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_TRUE(AdminToken::load(file).authorizes("Bearer " + std::string(40, 'k')));
  fs::permissions(file, fs::perms::group_read, fs::perm_options::add);
  EXPECT_THROW(AdminToken::load(file), InputError);
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  test::write_text(file, "short\n");
  EXPECT_THROW(AdminToken::load(file), InputError);
  EXPECT_THROW(AdminToken::load(dir.file("missing")), InputError);
}

TEST(ServeRequestLog, OneLineWithoutControlCharacters) {
  RequestRecord r;
  r.client = "127.0.0.1";
  r.method = "GET";
  r.target = "/v1/x\r\n2026-01-01 forged line";
  r.status = 404;
  r.error = "no\nsuch";
  const std::string text = RequestLog(stdout, false).format(r);
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_NE(text.find("\\x0d\\x0a"), std::string::npos);
  const std::string json = RequestLog(stdout, true).format(r);
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(json)["target"], r.target);
}

}  // namespace
}  // namespace gpdp::serve
