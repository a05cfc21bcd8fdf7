#include "core/ingest/release_cache.hpp"

#include <utility>

namespace lastro::ingest {

std::optional<ReleaseCache::Entry> ReleaseCache::Find(const std::string& dataset,
                                                      std::int64_t generation) const {
    std::lock_guard lock(mutex_);
    if (generation != generation_) {
        return std::nullopt;
    }
    auto it = releases_.find(dataset);
    if (it == releases_.end()) {
        return std::nullopt;
    }
    return it->second;
}

void ReleaseCache::Store(const std::string& dataset, std::int64_t generation, Entry release) {
    std::lock_guard lock(mutex_);
    if (generation < generation_) {
        return;
    }
    if (generation > generation_) {
        releases_.clear();
        generation_ = generation;
    }
    releases_.insert_or_assign(dataset, std::move(release));
}

std::shared_ptr<const void> KeptData::Find(std::string_view key, std::int64_t generation) const {
    std::lock_guard lock(mutex_);
    if (generation != generation_) {
        return nullptr;
    }
    auto it = values_.find(key);
    return it == values_.end() ? nullptr : it->second;
}

void KeptData::Store(std::string_view key, std::int64_t generation, std::shared_ptr<const void> value) {
    std::lock_guard lock(mutex_);
    if (generation < generation_) {
        return;
    }
    if (generation > generation_) {
        values_.clear();
        generation_ = generation;
    }
    if (auto it = values_.find(key); it != values_.end()) {
        it->second = std::move(value);
    } else {
        values_.emplace(std::string(key), std::move(value));
    }
}

std::optional<sdk::Release> CachedReleases::LatestRelease(const std::string& dataset) const {
    if (std::optional<ReleaseCache::Entry> hit = cache_.Find(dataset, generation_)) {
        remembered_ = true;
        return *hit;
    }
    // The newest id first: a release of the dataset committed after it would have a larger id,
    // so a release read now that is not larger is the dataset's latest at that id.
    const std::int64_t newest = catalog_.NewestReleaseId();
    std::optional<NumberedRelease> latest = catalog_.LatestNumberedRelease(dataset);
    saw_newest_(newest);
    if (!latest) {
        cache_.Store(dataset, newest, std::nullopt);
        return std::nullopt;
    }
    if (latest->id <= newest) {
        cache_.Store(dataset, newest, latest->release);
    }
    return std::move(latest->release);
}

std::shared_ptr<const void> CachedReleases::Recall(std::string_view key) const {
    std::shared_ptr<const void> kept = kept_.Find(key, generation_);
    if (kept) {
        remembered_ = true;
    }
    return kept;
}

// What this call read may be of a newer generation than `generation_` (an ingest committed
// since): then every call that recalls it is of a generation no longer the newest, and its
// settlement answers it anew.
void CachedReleases::Keep(std::string_view key, std::shared_ptr<const void> value) const {
    kept_.Store(key, generation_, std::move(value));
}

std::int64_t SnapshotReleases::Generation() const {
    if (!generation_) {
        generation_ = NewestReleaseId();
    }
    return *generation_;
}

std::shared_ptr<const void> SnapshotReleases::Recall(std::string_view key) const {
    return kept_.Find(key, Generation());
}

void SnapshotReleases::Keep(std::string_view key, std::shared_ptr<const void> value) const {
    kept_.Store(key, Generation(), std::move(value));
}

}  // namespace lastro::ingest
