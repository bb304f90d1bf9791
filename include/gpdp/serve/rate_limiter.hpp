#pragma once
// Per-client rate limit of `gpdp serve`: one token bucket per client address, refilled at `rate`
// tokens per second up to `burst`; a request takes one token (or `cost` tokens: the quota of new
// points takes one per point) or is refused (HTTP 429). Buckets
// idle long enough to be full again are forgotten, so memory stays bounded by the clients seen in
// the last burst/rate seconds. Thread-safe.
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace gpdp::serve {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  // rate = 0: no limit (every request allowed).
  RateLimiter(double rate_per_second, double burst);

  // Takes a token for `client` at time `now`; false when its bucket is empty. When refused,
  // `retry_after_s` (if given) receives the seconds until a token is available.
  bool allow(const std::string& client, Clock::time_point now = Clock::now(),
             double* retry_after_s = nullptr, double cost = 1.0);
  // Gives back tokens taken for work that was then not done.
  void refund(const std::string& client, double cost);
  std::size_t clients() const;

 private:
  struct Bucket {
    double tokens;
    Clock::time_point last;
  };
  void forget_full_buckets(Clock::time_point now);

  double rate_, burst_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
  Clock::time_point last_sweep_{};
};

}  // namespace gpdp::serve
