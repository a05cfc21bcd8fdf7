#include "core/auth/key_cache.hpp"

namespace lastro::auth {

KeyCache::KeyCache(KeyStore& store, std::chrono::milliseconds ttl, std::size_t capacity)
    : store_(store), ttl_(ttl), capacity_(capacity) {}

std::optional<Principal> KeyCache::Authenticate(const std::string& secret) {
    // Malformed keys never reach the database nor take room here.
    if (!LooksLikeKey(secret)) {
        return std::nullopt;
    }
    const std::string hash = HashKey(secret);
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        auto it = entries_.find(hash);
        if (it != entries_.end() && it->second.expires > now) {
            return it->second.principal;
        }
    }
    // Asked outside the lock: a slow database must not hold up every other key's calls.
    std::optional<Principal> principal = store_.AuthenticateHash(hash);
    std::lock_guard lock(mutex_);
    if (entries_.size() >= capacity_) {
        std::erase_if(entries_, [&](const auto& item) { return item.second.expires <= now; });
        if (entries_.size() >= capacity_) {
            entries_.clear();
        }
    }
    entries_[hash] = Entry{principal, now + ttl_};
    return principal;
}

}  // namespace lastro::auth
