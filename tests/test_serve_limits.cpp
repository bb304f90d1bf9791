// `gpdp serve` limits, concurrency and start-up checks, with real server processes on 127.0.0.1:
// per-client rate limit (429), points per request (413), the cap of points per path (503, known
// points still served), concurrent queries to one path serialised (every answer consistent with
// one path) while two paths are queried at once, and a server that refuses to start on a release it
// cannot vouch for.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/paths.hpp"
#include "support/serve/release_fixture.hpp"
#include "support/serve/server_process.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct TwoReleases {
  TempDir dir;
  std::string data = dir.file("d.csv");
  ServedRelease a, b;
  TwoReleases() {
    write_text(data, serve_test_data(30, 5));
    a = make_served_release(dir, "a", data, "--grid2d 0:1:6,0:1:6");
    b = make_served_release(dir, "b", data, "--grid2d 0:1:6,0:1:6");
  }
};

json point_list(int count, double offset) {
  json pts = json::array();
  for (int i = 0; i < count; ++i)
    pts.push_back({offset + 0.9 * (i % 17) / 17.0, 0.05 + 0.9 * (i / 17) / 17.0});
  return pts;
}

TEST(ServeLimits, RateLimitPerClientAnswers429ThenRecovers) {
  TwoReleases s;
  ServerProcess server(write_serve_config(s.dir, {release_entry(s.a)},
                                          R"({"rate_per_second": 2, "rate_burst": 5})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  std::map<int, int> statuses;
  for (int i = 0; i < 12; ++i) ++statuses[server.get("/v1/health").status];
  // 5 of burst, plus at most a token or two refilled while the 12 requests ran.
  EXPECT_GE(statuses[429], 5);
  EXPECT_GE(statuses[200], 5);
  const auto refused = server.get("/v1/releases");
  if (refused.status == 429) {
    EXPECT_GE(std::stoi(refused.headers.at("Retry-After")), 1);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1600));  // ≥ 3 tokens back
  EXPECT_EQ(server.get("/v1/health").status, 200);
}

TEST(ServeLimits, PointsPerRequestAndPerPath) {
  TwoReleases s;
  // The release holds 36 points; 10 more are allowed.
  ServerProcess server(write_serve_config(
      s.dir, {release_entry(s.a)},
      R"({"rate_per_second": 0, "max_points_per_request": 8, "max_points_per_path": 46})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  const std::string q = "/v1/releases/a/query";
  const auto big = server.post(q, json{{"points", point_list(9, 0.01)}}.dump());
  EXPECT_EQ(big.status, 413);
  EXPECT_NE(json::parse(big.body)["error"].get<std::string>().find("limit is 8"),
            std::string::npos);
  EXPECT_EQ(server.post(q, json{{"points", point_list(8, 0.01)}}.dump()).status, 200);
  const json two = point_list(2, 0.02);
  EXPECT_EQ(server.post(q, json{{"points", two}}.dump()).status, 200);  // 46 points now
  const auto full = server.post(q, json{{"points", {{0.5, 0.333}}}}.dump());
  EXPECT_EQ(full.status, 503);
  EXPECT_NE(json::parse(full.body)["error"].get<std::string>().find("46"), std::string::npos);
  // Points already answered are still served, and the path did not grow.
  EXPECT_EQ(server.post(q, json{{"points", two}}.dump()).status, 200);
  EXPECT_EQ(json::parse(server.get("/v1/releases").body)[0]["points_answered"], 46);
  EXPECT_EQ(server.get("/v1/health").status, 200);
}

TEST(ServeLimits, ConcurrentQueriesToTwoPathsGiveEveryPointOneValue) {
  TwoReleases s;
  ServerProcess server(write_serve_config(s.dir, {release_entry(s.a), release_entry(s.b)},
                                          R"({"rate_per_second": 0, "threads": 8})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  // 6 clients, each asking 5 batches of overlapping new points of both paths at once.
  std::vector<std::thread> clients;
  std::mutex m;
  std::map<std::string, std::map<std::pair<double, double>, std::vector<double>>> seen;
  int failures = 0;
  for (int c = 0; c < 6; ++c) {
    clients.emplace_back([&, c] {
      for (int round = 0; round < 5; ++round) {
        const std::string id = (c + round) % 2 ? "a" : "b";
        json pts = json::array();
        for (int k = 0; k < 4; ++k) pts.push_back({0.013 * (c + k + round) + 0.2, 0.5 + 0.01 * k});
        const auto r = server.post("/v1/releases/" + id + "/query", json{{"points", pts}}.dump());
        std::lock_guard lock(m);
        if (r.status != 200) {
          ++failures;
          continue;
        }
        const json a = json::parse(r.body);
        for (std::size_t k = 0; k < pts.size(); ++k)
          seen[id][{pts[k][0].get<double>(), pts[k][1].get<double>()}].push_back(
              a["value"][k].get<double>());
      }
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(failures, 0);
  // A point answered several times, by different clients, got one value.
  long distinct = 0;
  for (const auto& [id, points] : seen) {
    for (const auto& [p, values] : points) {
      ++distinct;
      for (const double v : values) EXPECT_EQ(v, values.front()) << id;
    }
  }
  const json list = json::parse(server.get("/v1/releases").body);
  EXPECT_EQ(list[0]["points_answered"].get<long>() + list[1]["points_answered"].get<long>(),
            72 + distinct);
}

TEST(ServeLimits, RefusesToStartOnAReleaseItCannotVouchFor) {
  TwoReleases s;
  auto refused = [&](const std::string& entry, const std::string& why) {
    ServerProcess server(write_serve_config(s.dir, {entry}, "{}", "bad.json"));
    EXPECT_FALSE(server.running()) << why;
    EXPECT_EQ(server.exit_code(), 2) << why;
    EXPECT_NE(server.stderr_text().find(why), std::string::npos) << server.stderr_text();
  };
  // The data changed (one digit): the posterior would not be the release's.
  std::string other = read_text(s.data);
  other[other.size() - 2] = other[other.size() - 2] == '1' ? '2' : '1';
  write_text(s.dir.file("other.csv"), other);
  ServedRelease wrong_data = s.a;
  wrong_data.data = s.dir.file("other.csv");
  refused(release_entry(wrong_data), "differs from the data of the kept path");
  // The release folder of another kept path.
  ServedRelease crossed = s.a;
  crossed.out = s.b.out;
  refused(release_entry(crossed), "is not the release of the kept path");
  // A ledger that never recorded the path.
  const std::string empty_ledger = s.dir.file("empty.sqlite");
  ASSERT_EQ(
      run_cli(
          fmt::format("release --data {} --domain 0:1,0:1 --ell 0.3 --r 3 --threshold 0 "
                      "--delta 1e-3 --dataset serve-test --ledger {} --out {} --grid2d 0:1:3,0:1:3",
                      s.data, empty_ledger, s.dir.file("unkept")))
          .exit_code,
      0);
  refused(release_entry(s.a, fmt::format(R"("ledger": "{}")", empty_ledger)),
          "has no release with this kept path");
  // A published file changed after the release.
  fs::copy(s.a.out, s.dir.file("tampered"), fs::copy_options::recursive);
  write_text(s.dir.file("tampered/map.png"), "not the released map");
  ServedRelease tampered = s.a;
  tampered.out = s.dir.file("tampered");
  refused(release_entry(tampered), "SHA-256 differs from the certificate");
  // A folder holding files that must never be published.
  fs::copy(s.a.out, s.dir.file("leaky"), fs::copy_options::recursive);
  write_text(s.dir.file("leaky/NOT_FOR_RELEASE_posterior.csv"), "x");
  ServedRelease leaky = s.a;
  leaky.out = s.dir.file("leaky");
  refused(release_entry(leaky), "must never be published");
  // Ids that could name a file.
  refused(release_entry({"../a", s.a.out, s.a.path, s.data}), "id '../a' must be");
  // A path another server is already serving (one writer per kept path).
  {
    ServerProcess first(write_serve_config(s.dir, {release_entry(s.a)}, "{}", "first.json"));
    ASSERT_TRUE(first.running()) << first.stderr_text();
    refused(release_entry(s.a), "is open elsewhere");
    // ... and so is `gpdp query` on it (one writer per kept path).
    write_text(s.dir.file("q.csv"), "x1,x2\n0.5,0.5\n");
    const auto q = run_cli(fmt::format("query {} --data {} --points {} --out {}", s.a.path, s.data,
                                       s.dir.file("q.csv"), s.dir.file("q-out.csv")));
    EXPECT_NE(q.exit_code, 0);
    EXPECT_NE(q.err.find("is open elsewhere"), std::string::npos) << q.err;
    EXPECT_FALSE(fs::exists(s.dir.file("q-out.csv")));
  }
  ServerProcess after(write_serve_config(s.dir, {release_entry(s.a)}, "{}", "after.json"));
  EXPECT_TRUE(after.running()) << after.stderr_text();  // the lock went with the first server
  after.stop(SIGTERM);
  // A path holding more points than allowed.
  ServerProcess small(write_serve_config(s.dir, {release_entry(s.a)},
                                         R"({"max_points_per_path": 10})", "small.json"));
  EXPECT_FALSE(small.running());
  EXPECT_NE(small.stderr_text().find("max_points_per_path"), std::string::npos);
}

}  // namespace
}  // namespace gpdp::test
