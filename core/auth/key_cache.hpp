// Authentication without a database read per call: the answer for a key hash (its principal,
// or "no such usable key") is kept for `ttl`, then asked again. A revoked key therefore stops
// working within `ttl` on every instance, and so do changed limits (docs/billing.md, "Keys").
// Bounded: when `capacity` hashes are held, expired ones go, and if none had, all go.
#pragma once

#include "core/auth/api_keys.hpp"

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace lastro::auth {

class KeyCache {
public:
    KeyCache(KeyStore& store, std::chrono::milliseconds ttl, std::size_t capacity = 100000);

    // As KeyStore::Authenticate; throws what it throws when the database must be asked.
    std::optional<Principal> Authenticate(const std::string& secret);

private:
    struct Entry {
        std::optional<Principal> principal;
        std::chrono::steady_clock::time_point expires;
    };

    KeyStore& store_;
    std::chrono::milliseconds ttl_;
    std::size_t capacity_;
    std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_;  // by SHA-256 of the key
};

}  // namespace lastro::auth
