#include "gpdp/serve/server.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/serve/api.hpp"
#include "gpdp/serve/http_error.hpp"
#include "gpdp/serve/rate_limiter.hpp"
#include "gpdp/serve/request_log.hpp"
// After every header that includes Eigen: httplib.h includes glibc's <resolv.h>, whose macro
// _res is a parameter name in Eigen's BLAS bindings.
// clang-format off
#include <httplib.h>
// clang-format on

namespace gpdp::serve {

namespace {

using Clock = std::chrono::steady_clock;

// What the request log needs beyond the request and response. A request is handled start to end
// on one worker thread, so this is thread-local.
struct InFlight {
  std::optional<Clock::time_point> start;
  ApiResponse meta;
};
thread_local InFlight in_flight;

void send(const ApiResponse& a, httplib::Response& res) {
  res.status = a.status;
  for (const auto& [k, v] : a.headers) res.set_header(k, v);
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Cache-Control", "no-store");
  res.set_content(a.body, a.content_type);
}

std::string default_message(int status, const Limits& limits) {
  switch (status) {
    case 400:
      return "malformed HTTP request";
    case 404:
      return "not found";
    case 405:
      return "method not allowed";
    case 408:
      return "request timed out";
    case 413:
      return fmt::format("the request body is larger than the limit of {} bytes",
                         limits.max_body_bytes);
    case 414:
      return "request target too long";
    default:
      return fmt::format("HTTP error {}", status);
  }
}

}  // namespace

struct Server::Impl {
  Impl(const ServeConfig& c, ServeOptions o)
      : config(c),
        api(c),
        limiter(c.limits.rate_per_second, c.limits.rate_burst),
        log(o.log, o.json_logs) {}

  // Runs an API call, turning errors into {"error": ...} responses.
  template <class Call>
  httplib::Server::Handler handler(Call call) {
    return [call](const httplib::Request& req, httplib::Response& res) {
      ApiResponse a;
      try {
        a = call(req);
      } catch (const HttpError& e) {
        a = error_response(e.status(), e.what(), e.retry_after_s());
      } catch (const std::exception& e) {
        // Not for the client (it may name server files); the log has it.
        a = error_response(500, "internal error; nothing was answered or recorded");
        a.error = e.what();
      }
      if (req.matches.size() > 1 && a.release.empty() && a.status != 404)
        a.release = req.matches[1].str();
      in_flight.meta = a;
      send(a, res);
    };
  }

  httplib::Server::HandlerResponse before_routing(const httplib::Request& req,
                                                  httplib::Response& res) {
    in_flight = {Clock::now(), {}};
    // Bodies must announce their length, so that max_body_bytes is enforced before any is read
    // (a chunked body would be read whole first).
    if (req.has_header("Transfer-Encoding")) {
      ApiResponse a = error_response(411, "send the body with a Content-Length, not chunked");
      a.headers.emplace_back("Connection", "close");
      in_flight.meta = a;
      send(a, res);
      return httplib::Server::HandlerResponse::Handled;
    }
    double retry = 0;
    if (limiter.allow(req.remote_addr, Clock::now(), &retry))
      return httplib::Server::HandlerResponse::Unhandled;
    ApiResponse a = error_response(429, "too many requests from this address; slow down",
                                   static_cast<int>(std::ceil(retry)));
    // The body (if any) is left unread: the connection cannot be reused.
    a.headers.emplace_back("Connection", "close");
    in_flight.meta = a;
    send(a, res);
    return httplib::Server::HandlerResponse::Handled;
  }

  httplib::Server::HandlerResponse on_error(const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    const ApiResponse a = error_response(res.status, default_message(res.status, config.limits));
    in_flight.meta.error = a.error;
    res.set_content(a.body, a.content_type);
    return httplib::Server::HandlerResponse::Handled;
  }

  void log_request(const httplib::Request& req, const httplib::Response& res) {
    RequestRecord r;
    r.client = req.remote_addr;
    r.method = req.method;
    r.target = req.target.empty() ? req.path : req.target;
    r.status = res.status;
    r.bytes = res.body.size();
    if (in_flight.start)
      r.milliseconds =
          std::chrono::duration<double, std::milli>(Clock::now() - *in_flight.start).count();
    r.release = in_flight.meta.release;
    r.points = in_flight.meta.points;
    r.new_points = in_flight.meta.new_points;
    r.error = in_flight.meta.error;
    log.write(r);
    in_flight = {};
  }

  void routes() {
    http.Get("/", handler([this](const httplib::Request&) { return api.page(); }));
    http.Get("/v1/health", handler([this](const httplib::Request&) { return api.health(); }));
    http.Get("/v1/releases", handler([this](const httplib::Request&) { return api.releases(); }));
    http.Get(R"(/v1/releases/([^/]+)/certificate)", handler([this](const httplib::Request& req) {
               return api.certificate(req.matches[1].str());
             }));
    http.Get(R"(/v1/releases/([^/]+)/([^/]+))", handler([this](const httplib::Request& req) {
               return api.file(req.matches[1].str(), req.matches[2].str());
             }));
    http.Post(R"(/v1/releases/([^/]+)/query)", handler([this](const httplib::Request& req) {
                return api.query(req.matches[1].str(), req.body);
              }));
    http.Get("/v1/admin/status", handler([this](const httplib::Request& req) {
               return api.admin_status(req.get_header_value("Authorization"));
             }));
  }

  void configure() {
    const Limits& l = config.limits;
    const auto threads = static_cast<std::size_t>(l.threads);
    http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    http.set_payload_max_length(l.max_body_bytes);
    http.set_read_timeout(l.read_timeout_s);
    http.set_write_timeout(l.write_timeout_s);
    http.set_keep_alive_timeout(l.keep_alive_timeout_s);
    http.set_keep_alive_max_count(1000);
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      return before_routing(req, res);
    });
    http.set_error_handler(httplib::Server::HandlerWithResponse(
        [this](const httplib::Request& req, httplib::Response& res) {
          return on_error(req, res);
        }));
    http.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
      log_request(req, res);
    });
    routes();
  }

  ServeConfig config;
  Api api;
  RateLimiter limiter;
  RequestLog log;
  httplib::Server http;
};

Server::Server(const ServeConfig& config, ServeOptions options)
    : impl_(std::make_unique<Impl>(config, options)) {
  impl_->configure();
}

Server::~Server() = default;

int Server::bind() {
  const ListenAddress& a = impl_->config.listen;
  const int port = a.port == 0 ? impl_->http.bind_to_any_port(a.host)
                               : (impl_->http.bind_to_port(a.host, a.port) ? a.port : -1);
  if (port <= 0)
    throw InputError(
        fmt::format("cannot listen on {}:{} (in use, or not an address of this "
                    "machine)",
                    a.host, a.port));
  return port;
}

void Server::run() { impl_->http.listen_after_bind(); }

void Server::stop() { impl_->http.stop(); }

}  // namespace gpdp::serve
