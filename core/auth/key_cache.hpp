// Authentication without a database read per call: the answer for a key hash is kept, then asked
// again. A valid key's principal is kept for `ttl`: a revoked key therefore stops working within
// `ttl` on every instance, and so do changed limits (docs/billing.md, "Keys"). A hash the key
// table did not accept (unknown or revoked) is kept for `unknown_ttl`, in a map of its own, so
// that a flood of made-up keys neither reaches the database again nor evicts the valid keys.
// Bounded: when `capacity` hashes are held in a map, its expired ones go, and if none had, all
// of that map go.
#pragma once

#include "core/auth/api_keys.hpp"

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace lastro::auth {

class KeyCache {
public:
    KeyCache(KeyStore& store, std::chrono::milliseconds ttl, std::chrono::milliseconds unknown_ttl,
             std::size_t capacity = 100000);

    // As KeyStore::Authenticate; throws what it throws when the database must be asked, and
    // then sets `*looked_up` (when given).
    std::optional<Principal> Authenticate(const std::string& secret, bool* looked_up = nullptr);

    // Whether this instance has seen `secret` valid since it started (bounded by `capacity`):
    // a key that may be asked about even when its client address is throttled. No database read.
    bool SeenValid(const std::string& secret);

private:
    struct Entry {
        std::optional<Principal> principal;
        std::chrono::steady_clock::time_point expires;
    };
    using Entries = std::unordered_map<std::string, Entry>;  // by SHA-256 of the key

    void Keep(Entries& entries, const std::string& hash, Entry entry,
              std::chrono::steady_clock::time_point now);

    KeyStore& store_;
    std::chrono::milliseconds ttl_;
    std::chrono::milliseconds unknown_ttl_;
    std::size_t capacity_;
    std::mutex mutex_;
    Entries valid_;
    Entries refused_;
    std::unordered_set<std::string> seen_valid_;
};

}  // namespace lastro::auth
