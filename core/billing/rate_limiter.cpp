#include "core/billing/rate_limiter.hpp"

#include <algorithm>

namespace lastro::billing {

RateDecision RateLimiter::Admit(std::int64_t key_id, std::int64_t limit, std::time_t now) {
    const std::time_t minute = now - now % 60;
    std::lock_guard lock(mutex_);
    Window& w = windows_[key_id];
    if (w.minute != minute) {
        w = Window{minute, 0};
    }
    RateDecision d;
    d.limit = limit;
    d.reset_at = minute + 60;
    if (w.count >= limit) {
        d.allowed = false;
        d.remaining = 0;
        return d;
    }
    ++w.count;
    d.allowed = true;
    d.remaining = std::max<std::int64_t>(0, limit - w.count);
    return d;
}

RateDecision RateLimiter::Peek(std::int64_t key_id, std::int64_t limit, std::time_t now) {
    const std::time_t minute = now - now % 60;
    std::lock_guard lock(mutex_);
    RateDecision d{true, limit, limit, minute + 60};
    auto it = windows_.find(key_id);
    if (it != windows_.end() && it->second.minute == minute) {
        d.remaining = std::max<std::int64_t>(0, limit - it->second.count);
    }
    return d;
}

}  // namespace lastro::billing
