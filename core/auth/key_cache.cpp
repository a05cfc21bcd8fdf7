#include "core/auth/key_cache.hpp"

namespace lastro::auth {

KeyCache::KeyCache(KeyStore& store, std::chrono::milliseconds ttl, std::chrono::milliseconds unknown_ttl,
                   std::size_t capacity)
    : store_(store), ttl_(ttl), unknown_ttl_(unknown_ttl), capacity_(capacity) {}

std::optional<Principal> KeyCache::Authenticate(const std::string& secret, bool* looked_up) {
    // Malformed keys never reach the database nor take room here.
    if (!LooksLikeKey(secret)) {
        return std::nullopt;
    }
    const std::string hash = HashKey(secret);
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        if (auto it = valid_.find(hash); it != valid_.end() && it->second.expires > now) {
            return it->second.principal;
        }
        if (auto it = refused_.find(hash); it != refused_.end() && it->second.expires > now) {
            return std::nullopt;
        }
    }
    // Asked outside the lock: a slow database must not hold up every other key's calls.
    if (looked_up) {
        *looked_up = true;
    }
    std::optional<Principal> principal = store_.AuthenticateHash(hash);
    std::lock_guard lock(mutex_);
    if (principal) {
        refused_.erase(hash);
        Keep(valid_, hash, Entry{principal, now + ttl_}, now);
        if (seen_valid_.size() >= capacity_) {
            seen_valid_.clear();
        }
        seen_valid_.insert(hash);
    } else {
        valid_.erase(hash);
        Keep(refused_, hash, Entry{std::nullopt, now + unknown_ttl_}, now);
    }
    return principal;
}

bool KeyCache::SeenValid(const std::string& secret) {
    if (!LooksLikeKey(secret)) {
        return false;
    }
    const std::string hash = HashKey(secret);
    std::lock_guard lock(mutex_);
    return seen_valid_.contains(hash);
}

void KeyCache::Keep(Entries& entries, const std::string& hash, Entry entry,
                    std::chrono::steady_clock::time_point now) {
    if (entries.size() >= capacity_ && !entries.contains(hash)) {
        std::erase_if(entries, [&](const auto& item) { return item.second.expires <= now; });
        if (entries.size() >= capacity_) {
            entries.clear();
        }
    }
    entries[hash] = std::move(entry);
}

}  // namespace lastro::auth
