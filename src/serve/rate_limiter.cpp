#include "gpdp/serve/rate_limiter.hpp"

#include <algorithm>

namespace gpdp::serve {

RateLimiter::RateLimiter(double rate_per_second, double burst)
    : rate_(rate_per_second), burst_(std::max(burst, 1.0)) {}

bool RateLimiter::allow(const std::string& client, Clock::time_point now, double* retry_after_s,
                        double cost) {
  if (rate_ <= 0) return true;
  std::lock_guard lock(mutex_);
  forget_full_buckets(now);
  auto [it, fresh] = buckets_.try_emplace(client, Bucket{burst_, now});
  Bucket& b = it->second;
  if (!fresh) {
    const double elapsed = std::chrono::duration<double>(now - b.last).count();
    b.tokens = std::min(burst_, b.tokens + std::max(elapsed, 0.0) * rate_);
    b.last = now;
  }
  if (b.tokens >= cost) {
    b.tokens -= cost;
    return true;
  }
  if (retry_after_s != nullptr) *retry_after_s = (cost - b.tokens) / rate_;
  return false;
}

void RateLimiter::refund(const std::string& client, double cost) {
  if (rate_ <= 0) return;
  std::lock_guard lock(mutex_);
  const auto it = buckets_.find(client);
  if (it != buckets_.end()) it->second.tokens = std::min(burst_, it->second.tokens + cost);
}

std::size_t RateLimiter::clients() const {
  std::lock_guard lock(mutex_);
  return buckets_.size();
}

// A bucket untouched for burst/rate seconds is full again: forgetting it changes nothing.
void RateLimiter::forget_full_buckets(Clock::time_point now) {
  const auto refill = std::chrono::duration<double>(burst_ / rate_);
  if (now - last_sweep_ < refill) return;
  last_sweep_ = now;
  std::erase_if(buckets_, [&](const auto& kv) { return now - kv.second.last >= refill; });
}

}  // namespace gpdp::serve
