// Failed authentications per client address (docs/billing.md, "Failed authentications"): after
// `limit` of them within a window that starts at an address's first failure and lasts
// `window_seconds`, the address is throttled until the window ends. The caller then answers 429
// with Retry-After without reading the key table, except for keys it has seen valid, so that a
// misbehaving client behind a shared address (a NAT, a proxy) does not lock out the others' keys.
// One instance counts for itself. Bounded: when `capacity` addresses are held, those whose window
// ended go, and if none had, all go.
#pragma once

#include <cstdint>
#include <ctime>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace lastro::auth {

class FailedAuthLimiter {
public:
    // `limit` 0: never throttles.
    FailedAuthLimiter(int limit, int window_seconds, std::size_t capacity = 100000);

    // Seconds until `address` may fail again (at least 1) while it is throttled; nullopt when not.
    std::optional<std::time_t> Throttled(const std::string& address, std::time_t now);
    // Counts one failed authentication of `address`.
    void Failed(const std::string& address, std::time_t now);

private:
    struct Window {
        std::time_t ends = 0;
        std::int64_t failures = 0;
    };

    int limit_;
    std::time_t window_seconds_;
    std::size_t capacity_;
    std::mutex mutex_;
    std::unordered_map<std::string, Window> windows_;
};

}  // namespace lastro::auth
