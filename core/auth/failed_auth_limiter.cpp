#include "core/auth/failed_auth_limiter.hpp"

#include <algorithm>

namespace lastro::auth {

FailedAuthLimiter::FailedAuthLimiter(int limit, int window_seconds, std::size_t capacity)
    : limit_(limit), window_seconds_(window_seconds), capacity_(capacity) {}

std::optional<std::time_t> FailedAuthLimiter::Throttled(const std::string& address, std::time_t now) {
    if (limit_ <= 0) {
        return std::nullopt;
    }
    std::lock_guard lock(mutex_);
    auto it = windows_.find(address);
    if (it == windows_.end() || it->second.ends <= now || it->second.failures < limit_) {
        return std::nullopt;
    }
    return std::max<std::time_t>(1, it->second.ends - now);
}

void FailedAuthLimiter::Failed(const std::string& address, std::time_t now) {
    if (limit_ <= 0) {
        return;
    }
    std::lock_guard lock(mutex_);
    auto it = windows_.find(address);
    if (it == windows_.end()) {
        if (windows_.size() >= capacity_) {
            std::erase_if(windows_, [&](const auto& item) { return item.second.ends <= now; });
            if (windows_.size() >= capacity_) {
                windows_.clear();
            }
        }
        it = windows_.emplace(address, Window{}).first;
    }
    if (it->second.ends <= now) {
        it->second = Window{now + window_seconds_, 0};
    }
    ++it->second.failures;
}

}  // namespace lastro::auth
