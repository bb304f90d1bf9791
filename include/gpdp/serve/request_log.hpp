#pragma once
// One line per request of `gpdp serve` (docs/serve.md), as text or as JSON (--json-logs). A line
// holds what an operator needs and nothing private: time, client address, method, target, status,
// response bytes, milliseconds, and for queries the release id and the number of points asked and
// newly drawn — never a coordinate or a value. Control characters in the target are escaped, so
// a client cannot forge log lines.
#include <cstdio>
#include <mutex>
#include <string>

namespace gpdp::serve {

struct RequestRecord {
  std::string client;
  std::string method;
  std::string target;
  int status = 0;
  std::size_t bytes = 0;
  double milliseconds = 0;
  std::string release;  // empty unless the request named a served release
  long points = -1;     // queries: points asked (-1: not a query)
  long new_points = -1;
  std::string error;  // the error message sent, if any
};

class RequestLog {
 public:
  RequestLog(std::FILE* out, bool json) : out_(out), json_(json) {}
  std::string format(const RequestRecord& r) const;
  void write(const RequestRecord& r);

 private:
  std::FILE* out_;
  bool json_;
  std::mutex mutex_;
};

}  // namespace gpdp::serve
