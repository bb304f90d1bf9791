#pragma once
// Test support for `gpdp serve`: a server process on 127.0.0.1 (any free port, chosen by the
// server itself) that is always killed when the object dies, and a small HTTP client. Every wait
// is bounded.
#include <sys/types.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace gpdp::test {

struct HttpResult {
  int status = 0;  // 0: no response (connection refused or broken)
  std::string body;
  std::map<std::string, std::string> headers;
};

// One request to 127.0.0.1:port; `timeout` bounds connecting, writing and reading.
HttpResult http_request(int port, const std::string& method, const std::string& path,
                        const std::string& body = "",
                        const std::map<std::string, std::string>& headers = {},
                        std::chrono::seconds timeout = std::chrono::seconds(30));
// The same from the client address `source` (an address of the loopback range, e.g. 127.0.0.2:
// another client as far as the server can tell).
HttpResult http_request_from(const std::string& source, int port, const std::string& method,
                             const std::string& path, const std::string& body = "",
                             std::chrono::seconds timeout = std::chrono::seconds(30));
// A connected TCP socket to 127.0.0.1:port from `source` (-1 if it could not connect); the caller
// closes it. Receive timeout `timeout`.
int connect_from(const std::string& source, int port,
                 std::chrono::milliseconds timeout = std::chrono::seconds(10));
// Sends `bytes` verbatim on a fresh connection and returns what came back before the server
// closed it or `timeout` passed (for malformed requests).
std::string raw_request(int port, const std::string& bytes,
                        std::chrono::seconds timeout = std::chrono::seconds(10));

class ServerProcess {
 public:
  // Starts `gpdp serve --config <config> --listen 127.0.0.1:0 <extra>` and waits (≤ 60 s) until
  // it listens. If it exits instead, port() is 0 and exit_code()/log() say why.
  explicit ServerProcess(const std::string& config, const std::vector<std::string>& extra = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  // The server's resident memory (VmRSS) in bytes, 0 if it cannot be read.
  long resident_bytes() const;
  bool running() const { return port_ > 0 && exit_code_ == kRunning; }
  HttpResult get(const std::string& path) const { return http_request(port_, "GET", path); }
  HttpResult post(const std::string& path, const std::string& body) const {
    return http_request(port_, "POST", path, body, {{"Content-Type", "application/json"}});
  }
  // Sends `signal` and waits (≤ 30 s) for the exit; returns the exit code or -signal.
  int stop(int signal);
  int exit_code() const { return exit_code_; }
  std::string stdout_text() const;  // the request log
  // The request log once it contains `needle`, or as it is after `timeout`: a log line is written
  // after its response has gone, so a client may see the response before the line.
  std::string stdout_text_with(const std::string& needle,
                               std::chrono::seconds timeout = std::chrono::seconds(10)) const;
  std::string stderr_text() const;

  static constexpr int kRunning = 1000;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  int exit_code_ = kRunning;
  std::string out_, err_;
};

}  // namespace gpdp::test
