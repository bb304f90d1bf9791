#include "support/serve/server_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
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
#include <httplib.h>
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

HttpResult http_request(int port, const std::string& method, const std::string& path,
                        const std::string& body, const std::map<std::string, std::string>& headers,
                        std::chrono::seconds timeout) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(timeout);
  client.set_read_timeout(timeout);
  client.set_write_timeout(timeout);
  httplib::Headers h(headers.begin(), headers.end());
  const auto type = headers.count("Content-Type") ? headers.at("Content-Type") : "text/plain";
  httplib::Result r = method == "GET"    ? client.Get(path, h)
                      : method == "POST" ? client.Post(path, h, body, type)
                                         : client.Delete(path, h);
  HttpResult out;
  if (!r) return out;
  out.status = r->status;
  out.body = r->body;
  for (const auto& [k, v] : r->headers) out.headers[k] = v;
  return out;
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

}  // namespace gpdp::test
