#include "support/serve/server_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <stdexcept>
#include <thread>

#include "support/paths.hpp"
// clang-format off
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
// clang-format on

namespace gpdp::test {

namespace {

using namespace std::chrono_literals;

int decode_status(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// Whether `reply` holds a whole response (headers and Content-Length bytes of body).
bool response_complete(const std::string& reply) {
  const auto end = reply.find("\r\n\r\n");
  if (end == std::string::npos) return false;
  const std::regex length(R"(Content-Length: *([0-9]+))", std::regex::icase);
  std::smatch m;
  const std::string head = reply.substr(0, end);
  if (!std::regex_search(head, m, length)) return false;
  return reply.size() >= end + 4 + std::stoul(m[1].str());
}

}  // namespace

namespace {

HttpResult request_from(const std::string& source, int port, const std::string& method,
                        const std::string& path, const std::string& body,
                        const std::map<std::string, std::string>& headers,
                        std::chrono::seconds timeout) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  namespace net = boost::asio;
  HttpResult out;
  try {
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.socket().open(net::ip::tcp::v4());
    stream.socket().bind({net::ip::make_address(source), 0});
    stream.expires_after(timeout);  // connecting, writing and reading together
    stream.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"),
                                          static_cast<unsigned short>(port)));
    http::request<http::string_body> req(http::string_to_verb(method), path, 11);
    req.set(http::field::host, fmt::format("127.0.0.1:{}", port));
    for (const auto& [k, v] : headers) req.set(k, v);
    if (!body.empty() || method == "POST") {
      if (!headers.count("Content-Type")) req.set(http::field::content_type, "text/plain");
      req.body() = body;
      req.prepare_payload();
    }
    http::write(stream, req);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 << 20);
    http::read(stream, buffer, parser);
    const auto& res = parser.get();
    out.status = static_cast<int>(res.result_int());
    out.body = res.body();
    for (const auto& field : res)
      out.headers[std::string(field.name_string())] = std::string(field.value());
  } catch (const std::exception&) {
    return {};  // no response: refused, reset or timed out
  }
  return out;
}

}  // namespace

HttpResult http_request(int port, const std::string& method, const std::string& path,
                        const std::string& body, const std::map<std::string, std::string>& headers,
                        std::chrono::seconds timeout) {
  return request_from("127.0.0.1", port, method, path, body, headers, timeout);
}

HttpResult http_request_from(const std::string& source, int port, const std::string& method,
                             const std::string& path, const std::string& body,
                             std::chrono::seconds timeout) {
  return request_from(
      source, port, method, path, body,
      body.empty() ? std::map<std::string, std::string>{}
                   : std::map<std::string, std::string>{{"Content-Type", "application/json"}},
      timeout);
}

int connect_from(const std::string& source, int port, std::chrono::milliseconds timeout) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  timeval tv{static_cast<time_t>(timeout.count() / 1000),
             static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &local.sin_addr);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof(local)) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

std::string raw_request(int port, const std::string& bytes, std::chrono::seconds timeout) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  timeval tv{static_cast<time_t>(timeout.count()), 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string reply;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;  // the server may close early (e.g. after a 413)
      sent += static_cast<std::size_t>(n);
    }
    char buf[4096];
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
      if (n <= 0) break;
      reply.append(buf, static_cast<std::size_t>(n));
      if (response_complete(reply)) break;
    }
  }
  ::close(fd);
  return reply;
}

ServerProcess::ServerProcess(const std::string& config, const std::vector<std::string>& extra) {
  static int counter = 0;
  const auto base = std::filesystem::path(config).parent_path() /
                    ("serve" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  out_ = base.string() + ".out";
  err_ = base.string() + ".err";
  std::vector<std::string> args = {cli_path(), "serve",    "--config",
                                   config,     "--listen", "127.0.0.1:0"};
  args.insert(args.end(), extra.begin(), extra.end());
  pid_ = ::fork();
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlives the test
    const int out = ::open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  const std::regex listening(R"(http://127\.0\.0\.1:([0-9]+)/)");
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < deadline) {
    std::smatch m;
    const std::string err = stderr_text();
    if (std::regex_search(err, m, listening)) {
      port_ = std::stoi(m[1].str());
      return;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      exit_code_ = decode_status(status);
      return;
    }
    std::this_thread::sleep_for(20ms);
  }
  stop(SIGKILL);
}

int ServerProcess::stop(int signal) {
  if (exit_code_ != kRunning || pid_ <= 0) return exit_code_;
  ::kill(pid_, signal);
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid_, &status, WNOHANG) == pid_) return exit_code_ = decode_status(status);
    std::this_thread::sleep_for(10ms);
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, &status, 0);
  return exit_code_ = decode_status(status);
}

ServerProcess::~ServerProcess() { stop(SIGKILL); }

std::string ServerProcess::stdout_text() const { return read_text(out_); }

std::string ServerProcess::stdout_text_with(const std::string& needle,
                                            std::chrono::seconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string text = stdout_text();
  while (text.find(needle) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    text = stdout_text();
  }
  return text;
}
std::string ServerProcess::stderr_text() const { return read_text(err_); }

long ServerProcess::resident_bytes() const {
  const std::string status = read_text(fmt::format("/proc/{}/status", pid_));
  const std::regex rss(R"(VmRSS:\s+([0-9]+) kB)");
  std::smatch m;
  return std::regex_search(status, m, rss) ? std::stol(m[1].str()) * 1024 : 0;
}

}  // namespace gpdp::test
