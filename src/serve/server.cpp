#include "gpdp/serve/server.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "api.hpp"
#include "gpdp/error.hpp"
#include "gpdp/serve/rate_limiter.hpp"
#include "gpdp/serve/request_log.hpp"
#include "http_error.hpp"
// clang-format off
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
// clang-format on

namespace gpdp::serve {

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using Request = http::request<http::string_body>;

// The route a request names: what it asks of the Api, and the methods it allows.
struct Route {
  enum class Kind {
    Page,
    Health,
    Releases,
    Certificate,
    File,
    Query,
    Admin,
    Leaflet,
    None
  } kind = Kind::None;
  std::string id, file;
  bool post() const { return kind == Kind::Query; }
};

std::vector<std::string> segments(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 1;
  while (start <= path.size()) {
    const auto end = path.find('/', start);
    out.emplace_back(path.substr(start, end == std::string_view::npos ? path.npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

Route route_of(std::string_view target) {
  const auto query = target.find('?');
  const std::string_view path = target.substr(0, query);
  Route r;
  if (path.empty() || path.front() != '/') return r;
  if (path == "/") return {Route::Kind::Page, {}, {}};
  if (path == "/v1/health") return {Route::Kind::Health, {}, {}};
  if (path == "/v1/releases") return {Route::Kind::Releases, {}, {}};
  if (path == "/v1/admin/status") return {Route::Kind::Admin, {}, {}};
  if (constexpr std::string_view leaflet = "/static/leaflet/"; path.rfind(leaflet, 0) == 0)
    return {Route::Kind::Leaflet, {}, std::string(path.substr(leaflet.size()))};
  const auto s = segments(path);
  if (s.size() == 4 && s[0] == "v1" && s[1] == "releases" && !s[2].empty() && !s[3].empty()) {
    if (s[3] == "certificate") return {Route::Kind::Certificate, s[2], {}};
    if (s[3] == "query") return {Route::Kind::Query, s[2], {}};
    return {Route::Kind::File, s[2], s[3]};
  }
  return r;
}

void add_common_headers(http::response<http::string_body>& res) {
  res.set("X-Content-Type-Options", "nosniff");
  res.set(http::field::cache_control, "no-store");
}

}  // namespace

struct Server::Impl {
  Impl(const ServeConfig& c, ServeOptions o)
      : config(c),
        api(c),
        limiter(c.limits.rate_per_second, c.limits.rate_burst),
        log(o.log, o.json_logs),
        acceptor(ioc),
        workers(static_cast<std::size_t>(c.limits.threads)) {}

  class Connection;

  // Answers an API call, turning errors into {"error": ...} responses.
  template <class Call>
  static ApiResponse guarded(Call call) {
    try {
      return call();
    } catch (const HttpError& e) {
      return error_response(e.status(), e.what(), e.retry_after_s());
    } catch (const std::exception& e) {
      // Not for the client (it may name server files); the log has it.
      ApiResponse a = error_response(500, "internal error; nothing was answered or recorded");
      a.error = e.what();
      return a;
    }
  }

  ApiResponse answer(const Route& r, const Request& req, const std::string& client) {
    return guarded([&]() -> ApiResponse {
      switch (r.kind) {
        case Route::Kind::Page:
          return api.page();
        case Route::Kind::Health:
          return api.health();
        case Route::Kind::Releases:
          return api.releases();
        case Route::Kind::Certificate:
          return api.certificate(r.id);
        case Route::Kind::File:
          return api.file(r.id, r.file);
        case Route::Kind::Query:
          return api.query(r.id, req.body(), client);
        case Route::Kind::Admin:
          return api.admin_status(std::string(req[http::field::authorization]));
        case Route::Kind::Leaflet:
          return api.leaflet(r.file);
        case Route::Kind::None:
          break;
      }
      throw HttpError(404, "not found");
    });
  }

  void accept();
  void admit(tcp::socket socket);
  void forget(const std::shared_ptr<Connection>& c);
  void stop_now();

  ServeConfig config;
  Api api;
  RateLimiter limiter;
  RequestLog log;
  net::io_context ioc{1};
  tcp::acceptor acceptor;
  net::thread_pool workers;
  std::atomic<int> queries_waiting{0};
  bool stopping = false;  // io thread only
  // Open connections (io thread only): per client address, and all of them.
  std::map<std::string, int> per_address;
  std::set<std::shared_ptr<Connection>> connections;
};

// One client connection, driven on the io thread: every wait has a deadline, every read a size
// cap; a query's drawing runs on a worker and its answer comes back here.
class Server::Impl::Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Impl& server, tcp::socket socket, std::string address)
      : server_(server),
        limits_(server.config.limits),
        stream_(std::move(socket)),
        buffer_(limits_.max_header_bytes + limits_.max_body_bytes + 4096),
        address_(std::move(address)) {}

  void start() { wait_for_request(); }
  const std::string& address() const { return address_; }
  // Closes an idle connection (the server stops); a busy one finishes its request first.
  void close_if_idle() {
    if (idle_) close();
  }

 private:
  // Between requests: wait (keep-alive timeout) for the first byte of the next one, unless a
  // pipelined request is already in the buffer.
  void wait_for_request() {
    if (server_.stopping) return close();
    if (buffer_.size() > 0) return read_header();
    idle_ = true;
    stream_.expires_after(std::chrono::seconds(limits_.keep_alive_timeout_s));
    const std::size_t room = std::min<std::size_t>(4096, buffer_.max_size() - buffer_.size());
    stream_.async_read_some(buffer_.prepare(room),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                              self->idle_ = false;
                              if (ec) return self->close();
                              self->buffer_.commit(n);
                              self->read_header();
                            });
  }

  // The whole request (headers and body) must arrive within read_timeout_s of its first byte.
  void read_header() {
    start_ = Clock::now();
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(limits_.max_header_bytes));
    parser_->body_limit(limits_.max_body_bytes);
    stream_.expires_after(std::chrono::seconds(limits_.read_timeout_s));
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
  }

  void on_header(beast::error_code ec) {
    if (ec) return refuse_unread(status_of(ec), message_of(ec));
    const auto& req = parser_->get();
    method_ = std::string(req.method_string());
    target_ = std::string(req.target());
    version_ = req.version() == 10 ? 10 : 11;
    head_ = req.method() == http::verb::head;
    keep_alive_ = req.keep_alive();
    std::size_t count = 0;
    for (auto it = req.begin(); it != req.end(); ++it) ++count;
    if (count > limits_.max_headers) {
      return refuse_unread(
          431, fmt::format("{} header fields; the limit is {}", count, limits_.max_headers));
    }
    double retry = 0;
    if (!server_.limiter.allow(address_, Clock::now(), &retry)) {
      return refuse_unread(429, "too many requests from this address; slow down",
                           static_cast<int>(std::ceil(retry)));
    }
    route_ = route_of(target_);
    const auto method = req.method();
    const bool known_method =
        method == http::verb::get || method == http::verb::head || method == http::verb::post;
    if (!known_method ||
        (route_.kind != Route::Kind::None && route_.post() != (method == http::verb::post))) {
      // The methods the target allows (all three the server knows for an unknown target).
      const char* allow = route_.kind == Route::Kind::None ? "GET, HEAD, POST"
                          : route_.post()                  ? "POST"
                                                           : "GET, HEAD";
      return refuse_unread(405, "method not allowed", 0, {{"Allow", allow}});
    }
    // Bodies must announce their length, so that max_body_bytes is checked before any is read.
    if (req.count(http::field::transfer_encoding) > 0)
      return refuse_unread(411, "send the body with a Content-Length, not chunked");
    if (const auto length = parser_->content_length(); length && *length > limits_.max_body_bytes) {
      return refuse_unread(413, fmt::format("the request body is larger than the limit of {} bytes",
                                            limits_.max_body_bytes));
    }
    if (parser_->is_done()) return dispatch();
    if (beast::iequals(req[http::field::expect], "100-continue")) {
      auto cont = std::make_shared<http::response<http::empty_body>>(http::status::continue_, 11);
      http::async_write(stream_, *cont,
                        [self = shared_from_this(), cont](beast::error_code e, std::size_t) {
                          if (e) return self->close();
                          self->read_body();
                        });
      return;
    }
    read_body();
  }

  void read_body() {
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec) return self->refuse_unread(status_of(ec), self->message_of(ec));
                       self->dispatch();
                     });
  }

  // Queries draw on a worker (seconds, possibly); everything else is answered from memory here.
  void dispatch() {
    stream_.expires_never();
    request_ = parser_->release();
    if (route_.kind != Route::Kind::Query)
      return respond(server_.answer(route_, request_, address_));
    if (server_.queries_waiting.load() >= static_cast<int>(limits_.max_queued_queries)) {
      return respond(
          error_response(503, "the server is busy answering other queries; retry shortly", 1));
    }
    ++server_.queries_waiting;
    // The io loop must not finish while a worker still has an answer to send back.
    net::post(server_.workers,
              [self = shared_from_this(), guard = net::make_work_guard(server_.ioc)] {
                ApiResponse a = self->server_.answer(self->route_, self->request_, self->address_);
                --self->server_.queries_waiting;
                net::post(self->stream_.get_executor(),
                          [self, a = std::move(a)]() mutable { self->respond(std::move(a)); });
              });
  }

  // A request refused before its body was read: the connection cannot be reused.
  void refuse_unread(int status, const std::string& message, int retry_after_s = 0,
                     std::vector<std::pair<std::string, std::string>> headers = {}) {
    if (status == 0) return close();  // the client went away or never sent a request
    ApiResponse a = error_response(status, message, retry_after_s);
    for (auto& h : headers) a.headers.push_back(std::move(h));
    close_after_ = true;
    respond(std::move(a));
  }

  void respond(ApiResponse a) {
    meta_ = a;
    auto res = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(a.status), version_);
    res->set(http::field::content_type, a.content_type);
    for (const auto& [k, v] : a.headers) res->set(k, v);
    add_common_headers(*res);
    ++served_;
    const bool keep = !close_after_ && !server_.stopping && keep_alive_ &&
                      served_ < limits_.max_requests_per_connection;
    res->keep_alive(keep);
    bytes_ = a.body.size();
    res->body() = std::move(a.body);
    res->prepare_payload();
    if (head_) res->body().clear();  // Content-Length stays that of the GET
    stream_.expires_after(std::chrono::seconds(limits_.write_timeout_s));
    http::async_write(stream_, *res,
                      [self = shared_from_this(), res, keep](beast::error_code ec, std::size_t) {
                        self->log_request();
                        if (ec) return self->close();
                        if (self->close_after_) return self->linger();
                        if (!keep) return self->close();
                        self->request_ = {};
                        self->parser_.reset();
                        self->version_ = 11;
                        self->head_ = self->keep_alive_ = false;
                        self->wait_for_request();
                      });
  }

  void log_request() {
    RequestRecord r;
    r.client = address_;
    r.method = method_.empty() ? "-" : method_;
    r.target = target_.empty() ? "-" : target_;
    r.status = meta_.status;
    r.bytes = bytes_;
    r.milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
    r.release = meta_.release;
    if (r.release.empty() && !route_.id.empty() && meta_.status != 404) r.release = route_.id;
    r.points = meta_.points;
    r.new_points = meta_.new_points;
    r.error = meta_.error;
    server_.log.write(r);
    method_.clear();
    target_.clear();
  }

  // After refusing a request whose body (or rest) was not read: stop sending, then read and drop
  // what the client still sends for a bounded time and amount before closing, so that the refusal
  // is not lost to a reset (closing with unread data makes the kernel send RST).
  void linger() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(std::chrono::seconds(2));
    drain(0);
  }
  void drain(std::size_t drained) {
    if (drained > (4u << 20)) return close();
    buffer_.clear();
    stream_.async_read_some(
        buffer_.prepare(std::min<std::size_t>(65536, buffer_.max_size())),
        [self = shared_from_this(), drained](beast::error_code ec, std::size_t n) {
          if (ec) return self->close();
          self->drain(drained + n);
        });
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
    server_.forget(shared_from_this());
  }

  static int status_of(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == net::error::eof ||
        ec == net::error::connection_reset || ec == net::error::operation_aborted)
      return 0;
    if (ec == beast::error::timeout) return 408;
    if (ec == http::error::header_limit) return 431;
    if (ec == http::error::body_limit || ec == http::error::buffer_overflow) return 413;
    return 400;
  }
  std::string message_of(beast::error_code ec) const {
    if (ec == beast::error::timeout)
      return fmt::format("the request did not arrive within {} s", limits_.read_timeout_s);
    if (ec == http::error::header_limit)
      return fmt::format("the request line and headers exceed {} bytes", limits_.max_header_bytes);
    if (ec == http::error::body_limit || ec == http::error::buffer_overflow)
      return fmt::format("the request body is larger than the limit of {} bytes",
                         limits_.max_body_bytes);
    if (ec == http::error::bad_content_length)
      return "malformed HTTP request (Content-Length: one value, a decimal number)";
    return "malformed HTTP request";
  }

  Impl& server_;
  const Limits& limits_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Request request_;
  Route route_;
  std::string address_, method_, target_;
  ApiResponse meta_;
  std::size_t bytes_ = 0;
  std::size_t served_ = 0;
  unsigned version_ = 11;
  bool head_ = false, keep_alive_ = false;
  Clock::time_point start_ = Clock::now();
  bool idle_ = false, close_after_ = false, closed_ = false;
};

void Server::Impl::accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (!acceptor.is_open()) return;  // stopping
    if (!ec) admit(std::move(socket));
    accept();
  });
}

// A new connection, within the caps: all connections, and those of one client address (so one
// client cannot take every slot). Past a cap it gets one short refusal and is closed.
void Server::Impl::admit(tcp::socket socket) {
  beast::error_code ec;
  const auto peer = socket.remote_endpoint(ec);
  if (ec) return;
  socket.set_option(tcp::no_delay(true), ec);  // no 40 ms Nagle/delayed-ACK stall per response
  std::string address = peer.address().to_string();
  const Limits& l = config.limits;
  int status = 0;
  std::string why;
  if (connections.size() >= l.max_connections) {
    status = 503;
    why = fmt::format("the server holds its limit of {} connections; retry shortly",
                      l.max_connections);
  } else if (per_address[address] >= static_cast<int>(l.max_connections_per_address)) {
    status = 429;
    why = fmt::format("this address holds {} open connections, the limit; reuse or close them",
                      l.max_connections_per_address);
  }
  if (status != 0) {
    if (per_address[address] == 0) per_address.erase(address);
    const ApiResponse a = error_response(status, why, 1);
    const std::string text = fmt::format(
        "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nRetry-After: "
        "1\r\nConnection: close\r\n\r\n{}",
        status, status == 503 ? "Service Unavailable" : "Too Many Requests", a.body.size(), a.body);
    socket.non_blocking(true, ec);
    socket.write_some(net::buffer(text), ec);  // best effort: a few hundred bytes
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
    RequestRecord r{address, "-", "-", status, a.body.size(), 0.0, "", -1, -1, why};
    log.write(r);
    return;
  }
  ++per_address[address];
  auto c = std::make_shared<Connection>(*this, std::move(socket), address);
  connections.insert(c);
  c->start();
}

void Server::Impl::forget(const std::shared_ptr<Connection>& c) {
  if (connections.erase(c) == 0) return;
  if (--per_address[c->address()] <= 0) per_address.erase(c->address());
}

void Server::Impl::stop_now() {
  stopping = true;
  beast::error_code ec;
  acceptor.close(ec);
  const auto open = connections;  // close_if_idle() changes the set
  for (const auto& c : open) c->close_if_idle();
}

Server::Server(const ServeConfig& config, ServeOptions options)
    : impl_(std::make_unique<Impl>(config, options)) {}

Server::~Server() = default;

int Server::bind() {
  const ListenAddress& a = impl_->config.listen;
  beast::error_code ec;
  tcp::endpoint endpoint;
  const auto ip = net::ip::make_address(a.host, ec);
  if (!ec) {
    endpoint = {ip, static_cast<unsigned short>(a.port)};
  } else {
    tcp::resolver resolver(impl_->ioc);
    const auto found = resolver.resolve(a.host, std::to_string(a.port), ec);
    if (!ec && !found.empty()) endpoint = found.begin()->endpoint();
  }
  auto& acc = impl_->acceptor;
  if (!ec) acc.open(endpoint.protocol(), ec);
  if (!ec) acc.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acc.bind(endpoint, ec);
  if (!ec) acc.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    throw InputError(
        fmt::format("cannot listen on {}:{} ({}: in use, or not an address of this machine)",
                    a.host, a.port, ec.message()));
  }
  return acc.local_endpoint().port();
}

void Server::run() {
  impl_->accept();
  impl_->ioc.run();
  impl_->workers.join();
}

void Server::stop() {
  net::post(impl_->ioc, [impl = impl_.get()] { impl->stop_now(); });
}

}  // namespace gpdp::serve
