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

}  // namespace lastro::ingest
