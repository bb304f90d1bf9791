// gpdp serve: kept released paths as a read-only web service (docs/serve.md). The public asks for
// the released path at new points, the map and the certificate; the private data stay on the
// server. Every release is checked at start as `gpdp query` checks it; one line is logged per
// request; SIGINT/SIGTERM stop it after the requests in progress have finished.
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <thread>

#include "command.hpp"
#include "gpdp/error.hpp"
#include "gpdp/serve/config.hpp"
#include "gpdp/serve/leaflet_files.hpp"
#include "gpdp/serve/server.hpp"

namespace gpdp::cli {

namespace {

struct ServeFlags {
  std::string config;
  std::string listen;
  bool json_logs = false;
};

// SIGINT/SIGTERM write to a pipe (all a signal handler may safely do); one thread waits on it
// and stops the server, which then finishes the requests in progress.
int stop_pipe[2] = {-1, -1};

void on_stop_signal(int) {
  const char byte = 1;
  [[maybe_unused]] const auto n = ::write(stop_pipe[1], &byte, 1);
}

std::thread stop_on_signal(serve::Server& server) {
  if (::pipe(stop_pipe) != 0) throw Error("gpdp serve: cannot create a pipe");
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  return std::thread([&server] {
    char byte = 0;
    while (::read(stop_pipe[0], &byte, 1) < 0 && errno == EINTR) {
    }
    server.stop();
  });
}

void run(const ServeFlags& f) {
  serve::ServeConfig config = serve::load_serve_config(f.config);
  if (!f.listen.empty()) config.listen = serve::parse_listen(f.listen, "--listen");
  serve::Server server(config, {f.json_logs, stdout});
  const int port = server.bind();
  for (const auto& r : config.releases) {
    if (r.insecure_seed)
      std::fprintf(stderr,
                   "gpdp serve: release '%s' uses insecure_seed: its answers are NOT "
                   "PRIVATE\n",
                   r.id.c_str());
  }
  if (const std::string missing = serve::LeafletFiles::load(config.map.leaflet_dir).missing();
      !missing.empty()) {
    std::fprintf(stderr, "gpdp serve: warning: %s; the map page falls back to typed points\n",
                 missing.c_str());
  }
  std::fprintf(stderr, "gpdp serve: %zu release(s) on http://%s:%d/\n", config.releases.size(),
               config.listen.host.c_str(), port);
  std::fflush(stderr);
  std::thread waiter = stop_on_signal(server);
  server.run();
  on_stop_signal(0);  // returned without a signal: let the waiter finish
  waiter.join();
}

void setup(CLI::App& app) {
  auto* sub = app.add_subcommand(
      "serve",
      "Serve kept released paths over HTTP: map page, certificate, and queries answered\n"
      "conditionally on everything already released (no budget consumed). Example:\n"
      "  gpdp serve --config serve.json --listen 127.0.0.1:8080");
  auto f = std::make_shared<ServeFlags>();
  sub->add_option("--config", f->config, "Server configuration (JSON; see docs/serve.md)")
      ->required();
  sub->add_option("--listen", f->listen,
                  "HOST:PORT to listen on (overrides the config; port 0 = any free port)");
  sub->add_flag("--json-logs", f->json_logs, "Log one JSON object per request instead of text");
  sub->callback([f] { run(*f); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
