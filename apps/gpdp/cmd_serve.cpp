// gpdp serve: kept released paths as a read-only web service (docs/serve.md). The public asks for
// the released path at new points, the map and the certificate; the private data stay on the
// server. Every release is checked at start as `gpdp query` checks it; one line is logged per
// request; SIGINT/SIGTERM stop it after the requests in progress have finished. The flags are the
// library's options table (commands/serve.hpp); argv becomes the JSON request (--print-request
// shows it), which serve::serve_request_from_json reads (the configuration file, the listen
// address on top of it), as Python's gpdp.serve.request makes it.
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <thread>

#include "command.hpp"
#include "gpdp/commands/command_options.hpp"
#include "gpdp/error.hpp"
#include "gpdp/serve/leaflet_files.hpp"
#include "gpdp/serve/request.hpp"
#include "gpdp/serve/server.hpp"
#include "spec_options.hpp"

namespace gpdp::cli {

namespace {

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

void run(const SpecOptions& opts) {
  const auto parsed = opts.parsed(options::RequestDefaults::Omitted);
  if (SpecOptions::print_request(parsed)) return;
  const serve::ServeRequest request = serve::serve_request_from_json(parsed.request);
  const serve::ServeConfig& config = request.config;
  serve::Server server(config, {request.json_logs, stdout});
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
  auto opts = std::make_shared<SpecOptions>(sub, commands::command_options("serve"));
  sub->callback([opts] { run(*opts); });
}

const bool registered = register_command(&setup);

}  // namespace
}  // namespace gpdp::cli
