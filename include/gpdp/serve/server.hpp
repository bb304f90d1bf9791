#pragma once
// `gpdp serve`: the API of api.hpp over HTTP/1.1, event-driven (Boost.Beast on Boost.Asio;
// docs/serve.md says why): one I/O thread owns every connection and answers what is served from
// memory; queries are drawn by a pool of worker threads, which never wait on a socket. Limits
// (config.hpp): whole-request, idle and response deadlines, connections per client address and in
// all, header bytes and fields, body bytes (413 before reading), a per-client token bucket (429);
// TCP_NODELAY; strict framing (405, one Content-Length); one log line per request. Plain HTTP:
// TLS is left to a reverse proxy in front (docs/serve.md).
#include <cstdio>
#include <memory>

#include "gpdp/serve/config.hpp"

namespace gpdp::serve {

struct ServeOptions {
  bool json_logs = false;
  std::FILE* log = stdout;
};

class Server {
 public:
  // Opens and checks every release (throws before anything listens).
  Server(const ServeConfig& config, ServeOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the configured address; returns the port (the one chosen when the config says 0).
  int bind();
  // Serves until stop() (from another thread); returns when the workers have finished.
  void run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpdp::serve
