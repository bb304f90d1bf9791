#pragma once
// An error with the HTTP status that `gpdp serve` answers for it; the body is {"error": what()}.
// 400 bad request, 404 unknown, 413 too large, 429 rate limited, 503 busy or full.
#include <stdexcept>
#include <string>

namespace gpdp::serve {

class HttpError : public std::runtime_error {
 public:
  HttpError(int status, const std::string& message, int retry_after_s = 0)
      : std::runtime_error(message), status_(status), retry_after_s_(retry_after_s) {}
  int status() const { return status_; }
  int retry_after_s() const { return retry_after_s_; }  // 0: no Retry-After header

 private:
  int status_;
  int retry_after_s_;
};

}  // namespace gpdp::serve
