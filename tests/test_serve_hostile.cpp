// `gpdp serve` against hostile clients, without a proxy in front (issue #29, holes 2, 5, 6, 8):
// slow sockets (twice as many as the workers) hold no worker and a trickled request is cut at its
// whole-request deadline; idle sockets of one address are capped and delay no one else; sixteen
// keep-alive clients are all served; a header flood is refused at a bounded cost in memory; wrong
// methods get 405, two different Content-Length headers 400, pipelined requests are all answered in
// order, and a keep-alive connection has no 40 ms stall per request (TCP_NODELAY); one client
// address cannot use up a path's new points for everyone. Every server listens on 127.0.0.1 and
// every client here is bounded in requests and time. The latencies asserted are the issue's
// acceptance criteria, with margins for a loaded two-core machine (the server answers a health
// check in well under 10 ms).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "support/paths.hpp"
#include "support/serve/release_fixture.hpp"
#include "support/serve/server_process.hpp"

namespace gpdp::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct Served {
  TempDir dir;
  std::string data = dir.file("d.csv");
  ServedRelease a;
  Served() {
    write_text(data, serve_test_data(30, 5));
    a = make_served_release(dir, "a", data, "--grid2d 0:1:6,0:1:6");
  }
  std::string config(const std::string& limits) const {
    return write_serve_config(dir, {release_entry(a)}, limits);
  }
};

void send_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<std::size_t>(n);
  }
}

// Reads until the peer closes or the socket's timeout; returns what came.
std::string read_all(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return out;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

TEST(ServeHostile, SlowSocketsHoldNoWorkerAndAreCutAtTheRequestDeadline) {
  Served s;
  ServerProcess server(s.config(R"({"rate_per_second": 0, "read_timeout_s": 2})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  // 16 sockets (twice the workers) trickle a request one byte every 250 ms (for up to 6 s).
  std::atomic<int> cut{0};
  std::vector<std::thread> slow;
  for (int i = 0; i < 16; ++i) {
    slow.emplace_back([&] {
      const int fd = connect_from("127.0.0.1", server.port(), 6s);
      if (fd < 0) return;
      const std::string line = "GET /v1/health HTTP/1.1\r\nHost: x\r\n";
      bool closed = false;
      for (std::size_t k = 0; k < 24 && !closed; ++k) {
        closed = ::send(fd, &line[k], 1, MSG_NOSIGNAL) <= 0;
        std::this_thread::sleep_for(250ms);
        char c;
        closed = closed || ::recv(fd, &c, 1, MSG_DONTWAIT) == 0;
      }
      cut += closed;
      ::close(fd);
    });
  }
  std::this_thread::sleep_for(1000ms);
  const auto t = Clock::now();
  const auto health = http_request(server.port(), "GET", "/v1/health", "", {}, 10s);
  const double latency = seconds_since(t);
  for (auto& th : slow) th.join();
  EXPECT_EQ(health.status, 200);
  EXPECT_LT(latency, 1.0) << "a health check waited " << latency << " s behind 16 slow sockets";
  // The trickled requests were cut at their 2 s deadline, long before the last byte.
  EXPECT_EQ(cut.load(), 16);
}

TEST(ServeHostile, IdleSocketsOfOneAddressAreCappedAndDelayNoOneElse) {
  Served s;
  ServerProcess server(s.config(R"({"rate_per_second": 0})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  // 100 idle sockets from another client address: 32 (the default cap) are kept, the rest
  // refused at once.
  std::vector<int> idle;
  for (int i = 0; i < 100; ++i) idle.push_back(connect_from("127.0.0.2", server.port(), 2s));
  int refused = 0;
  for (const int fd : idle) {
    if (fd < 0) continue;
    char buf[512];
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    refused +=
        n > 0 && std::string(buf, static_cast<std::size_t>(n)).find(" 429 ") != std::string::npos;
  }
  // The refusals are written at accept; give the last ones a moment to arrive.
  std::this_thread::sleep_for(300ms);
  for (const int fd : idle) {
    if (fd < 0) continue;
    char buf[512];
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    refused +=
        n > 0 && std::string(buf, static_cast<std::size_t>(n)).find(" 429 ") != std::string::npos;
  }
  EXPECT_EQ(refused, 68);
  const auto t = Clock::now();
  EXPECT_EQ(http_request(server.port(), "GET", "/v1/health", "", {}, 10s).status, 200);
  EXPECT_LT(seconds_since(t), 1.0) << "a client waited behind 100 idle sockets";
  EXPECT_EQ(http_request_from("127.0.0.2", server.port(), "GET", "/v1/health", "", 10s).status, 429)
      << "a 33rd connection from the capped address was admitted";
  for (const int fd : idle)
    if (fd >= 0) ::close(fd);
}

// 16 clients each keep one connection open and ask every 50 ms for 3 s (as a page polling would):
// every one is served at that pace.
TEST(ServeHostile, SixteenKeepAliveClientsAreAllServed) {
  Served s;
  ServerProcess server(s.config(R"({"rate_per_second": 0, "threads": 8})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  std::vector<int> answered(16, 0);
  std::vector<std::thread> clients;
  const std::string request = "GET /v1/releases/a/certificate HTTP/1.1\r\nHost: x\r\n\r\n";
  for (int c = 0; c < 16; ++c) {
    clients.emplace_back([&, c] {
      const int fd = connect_from("127.0.0.1", server.port(), 3s);
      if (fd < 0) return;
      const auto end = Clock::now() + 3s;
      std::string pending;
      char buf[65536];
      while (Clock::now() < end) {
        send_all(fd, request);
        // One response: headers, then Content-Length bytes.
        for (;;) {
          const auto head = pending.find("\r\n\r\n");
          if (head != std::string::npos) {
            const auto cl = pending.find("Content-Length: ");
            const std::size_t length = std::stoul(pending.substr(cl + 16));
            if (pending.size() >= head + 4 + length) {
              pending.erase(0, head + 4 + length);
              break;
            }
          }
          const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
          if (n <= 0) {
            ::close(fd);
            return;
          }
          pending.append(buf, static_cast<std::size_t>(n));
        }
        ++answered[c];
        std::this_thread::sleep_for(50ms);
      }
      ::close(fd);
    });
  }
  for (auto& t : clients) t.join();
  // At that pace a client can make 60 requests; each must get a third of them (measured: 59-60
  // each; with a worker held per connection, two clients got 1 and four got 20).
  for (int c = 0; c < 16; ++c)
    EXPECT_GE(answered[c], 20) << "client " << c << " was starved: " << answered[c] << " answers";
}

TEST(ServeHostile, HeaderFloodIsRefusedAtABoundedCost) {
  Served s;
  ServerProcess server(s.config(R"({"rate_per_second": 0})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  const long before = server.resident_bytes();
  ASSERT_GT(before, 0);
  // 8 clients at once, each sending 200 000 tiny header fields (1.4 MB).
  std::string flood = "GET /v1/health HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 200000; ++i) flood += "X-a: b\r\n";
  flood += "\r\n";
  std::vector<std::string> replies(8);
  std::vector<std::thread> clients;
  for (int c = 0; c < 8; ++c) {
    clients.emplace_back([&, c] {
      const int fd = connect_from("127.0.0.1", server.port(), 10s);
      if (fd < 0) return;
      send_all(fd, flood);
      replies[c] = read_all(fd);
      ::close(fd);
    });
  }
  for (auto& t : clients) t.join();
  for (const auto& r : replies) EXPECT_EQ(r.rfind("HTTP/1.1 431", 0), 0u) << r.substr(0, 100);
  const long after = server.resident_bytes();
  EXPECT_LT(after - before, 32L << 20) << "resident memory grew from " << before << " to " << after;
  EXPECT_EQ(server.get("/v1/health").status, 200);
  // The count of header fields is capped too, well below the byte cap.
  std::string many = "GET /v1/health HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 100; ++i) many += "X-a: b\r\n";
  EXPECT_EQ(raw_request(server.port(), many + "\r\n").rfind("HTTP/1.1 431", 0), 0u);
}

TEST(ServeHostile, MethodsFramingPipeliningAndNoDelay) {
  Served s;
  ServerProcess server(s.config(R"({"rate_per_second": 0})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  const int port = server.port();
  for (const char* method : {"PUT", "PATCH", "DELETE"}) {
    const auto r = http_request(port, method, "/v1/releases/a/query", "{}");
    EXPECT_EQ(r.status, 405) << method;
    EXPECT_EQ((r.headers.count("Allow") ? r.headers.at("Allow") : ""), "POST") << method;
  }
  EXPECT_EQ(http_request(port, "POST", "/v1/health", "{}").status, 405);
  EXPECT_EQ(http_request(port, "GET", "/v1/releases/a/query").status, 405);
  // Two different Content-Length headers: which body is meant? Refused.
  const std::string two_lengths =
      "POST /v1/releases/a/query HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: "
      "30\r\n\r\n{\"points\": [[0.5, 0.5]]}     ";
  EXPECT_EQ(raw_request(port, two_lengths).rfind("HTTP/1.1 400", 0), 0u);
  // Three pipelined requests in one write: three responses, in order.
  const int fd = connect_from("127.0.0.1", port, 5s);
  ASSERT_GE(fd, 0);
  send_all(fd,
           "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"
           "GET /v1/releases/a/nothing HTTP/1.1\r\nHost: x\r\n\r\n"
           "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const std::string replies = read_all(fd);
  ::close(fd);
  const auto first = replies.find("HTTP/1.1 200"), second = replies.find("HTTP/1.1 404"),
             third = replies.rfind("HTTP/1.1 200");
  EXPECT_NE(first, std::string::npos) << replies;
  EXPECT_NE(second, std::string::npos) << replies;
  EXPECT_TRUE(first < second && second < third && third != std::string::npos) << replies;
  // 50 requests back to back on one keep-alive connection: without TCP_NODELAY each waits ~40 ms
  // for the delayed ACK (≥ 2 s in all).
  const int ka = connect_from("127.0.0.1", port, 5s);
  ASSERT_GE(ka, 0);
  const auto t = Clock::now();
  int ok = 0;
  for (int i = 0; i < 50; ++i) {
    send_all(ka, "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string reply;
    char buf[1024];
    while (reply.find("{\"status\":\"ok\"}") == std::string::npos) {
      const ssize_t n = ::recv(ka, buf, sizeof buf, 0);
      if (n <= 0) break;
      reply.append(buf, static_cast<std::size_t>(n));
    }
    ok += reply.rfind("HTTP/1.1 200", 0) == 0;
  }
  const double elapsed = seconds_since(t);
  ::close(ka);
  EXPECT_EQ(ok, 50);
  EXPECT_LT(elapsed, 1.5) << "50 keep-alive requests took " << elapsed << " s";
}

// The default quota: 100 new points per client address and path, refilled over an hour.
TEST(ServeHostile, OneClientCannotUseUpThePathForEveryone) {
  Served s;
  ServerProcess server(s.config(R"({"rate_per_second": 0})"));
  ASSERT_TRUE(server.running()) << server.stderr_text();
  const std::string q = "/v1/releases/a/query";
  auto points = [](double y, int n) {
    json pts = json::array();
    for (int i = 0; i < n; ++i) pts.push_back({0.005 + 0.0099 * i, y});
    return json{{"points", pts}}.dump();
  };
  // Client A (127.0.0.2) takes its 100 new points, then is refused new ones, not known ones.
  EXPECT_EQ(http_request_from("127.0.0.2", server.port(), "POST", q, points(0.37, 60)).status, 200);
  EXPECT_EQ(http_request_from("127.0.0.2", server.port(), "POST", q, points(0.41, 40)).status, 200);
  const auto over = http_request_from("127.0.0.2", server.port(), "POST", q, points(0.43, 1));
  EXPECT_EQ(over.status, 429);
  EXPECT_NE(over.body.find("quota of new points"), std::string::npos) << over.body;
  EXPECT_GE(std::stoi(over.headers.count("Retry-After") ? over.headers.at("Retry-After") : "0"), 1);
  EXPECT_EQ(http_request_from("127.0.0.2", server.port(), "POST", q, points(0.37, 60)).status, 200);
  // Client B still gets new points: the path is not full (503 is for a full path only).
  const auto b = http_request(server.port(), "POST", q, points(0.6, 3),
                              {{"Content-Type", "application/json"}});
  EXPECT_EQ(b.status, 200) << b.body;
  EXPECT_EQ(json::parse(b.body)["new_points"], 3);
}

}  // namespace
}  // namespace gpdp::test
