// Calls per minute per key: a fixed window aligned to the UTC minute, counted in this process
// (docs/billing.md). Every authenticated call counts, whatever its outcome: a refund never
// lowers the count.
#pragma once

#include <cstdint>
#include <ctime>
#include <mutex>
#include <unordered_map>

namespace lastro::billing {

struct RateDecision {
    bool allowed = false;
    std::int64_t limit = 0;
    std::int64_t remaining = 0;
    std::time_t reset_at = 0;  // epoch seconds when the window ends
};

class RateLimiter {
public:
    RateDecision Admit(std::int64_t key_id, std::int64_t limit, std::time_t now);
    // The window as it stands, without counting a call (for headers of unbilled answers).
    RateDecision Peek(std::int64_t key_id, std::int64_t limit, std::time_t now);

private:
    struct Window {
        std::time_t minute = 0;
        std::int64_t count = 0;
    };
    std::mutex mutex_;
    std::unordered_map<std::int64_t, Window> windows_;
};

}  // namespace lastro::billing
