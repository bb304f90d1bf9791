#pragma once
// `gpdp serve`: the API of api.hpp over HTTP/1.1 with cpp-httplib (docs/serve.md says why this
// library): a fixed pool of worker threads, request bodies capped at limits.max_body_bytes (413),
// read/write/keep-alive timeouts, a per-client token bucket (429), one log line per request.
// Plain HTTP: TLS is left to a reverse proxy in front (docs/serve.md).
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
