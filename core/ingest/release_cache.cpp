#include "core/ingest/release_cache.hpp"

#include <utility>

namespace lastro::ingest {

std::optional<sdk::Release> CachedReleases::LatestRelease(const std::string& dataset) const {
    if (std::optional<std::optional<sdk::Release>> hit = cache_.Find(dataset, generation_)) {
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
    std::shared_ptr<const void> kept = kept_.Find(key, generation_).value_or(nullptr);
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
    return kept_.Find(key, Generation()).value_or(nullptr);
}

void SnapshotReleases::Keep(std::string_view key, std::shared_ptr<const void> value) const {
    kept_.Store(key, Generation(), std::move(value));
}

}  // namespace lastro::ingest
