// The authentication part of the request pipeline: who calls, from the Authorization header.
// Owns the key store, the key cache and the failed-authentication limiter (docs/billing.md,
// "Keys", "Failed authentications"). Exactly "Bearer <key>", the scheme in any case; nothing is
// reserved before it succeeds, so a failure costs nothing. A client address with too many
// failures is refused 429 without reading the key table, unless its key is one this instance
// has seen valid. Shared by every request thread.
#pragma once

#include "core/auth/api_keys.hpp"
#include "core/auth/failed_auth_limiter.hpp"
#include "core/auth/key_cache.hpp"
#include "core/request/refusal.hpp"

#include <odb/database.hxx>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <variant>

namespace lastro::metrics {
class ServerMetrics;
}

namespace lastro::auth {

// An authenticated caller: its key and the limits that apply to it.
struct Caller {
    Principal principal;
    std::int64_t allowance = 0;   // monthly credits
    std::int64_t per_minute = 0;  // calls per minute
};

struct AuthenticationSettings {
    std::chrono::milliseconds reply_timeout{0};  // a key read's bound (PostgreSQL), 0: none
    std::chrono::milliseconds key_cache{0};
    std::chrono::milliseconds unknown_key_cache{0};
    int failed_auth_limit = 0;
    int failed_auth_window_s = 60;
    // The limits of a key that sets none of its own.
    std::int64_t monthly_allowance = 0;
    std::int64_t calls_per_minute = 0;
};

class Authentication {
public:
    // `metrics`, when given, counts refusals and key reads; it must outlive this part.
    Authentication(odb::database& db, const AuthenticationSettings& settings,
                   metrics::ServerMetrics* metrics);

    // The caller of `authorization` (the header, if sent) from `client_address` at `now`, or the
    // refusal: 401 (no key, a malformed header, an unknown or revoked key), 429 (the address is
    // throttled), 503 (the key table could not be read).
    std::variant<Caller, request::Refusal> Authenticate(const std::optional<std::string>& authorization,
                                                        const std::string& client_address, std::time_t now);

private:
    AuthenticationSettings settings_;
    KeyStore keys_;
    KeyCache key_cache_;
    FailedAuthLimiter failed_auths_;
    metrics::ServerMetrics* metrics_;
};

}  // namespace lastro::auth
