// The latest release of each dataset as of one generation (the newest release id of any
// dataset), kept in memory so that a call on PostgreSQL reads no release: every handler asks
// for one for meta.data_release, and on PostgreSQL each ask is a round trip (docs/storage.md;
// docs/performance.md, "Twelfth round"). A call answered with a remembered release is
// settled only if its generation is still the newest when its settlement's batch looks, and is
// answered anew otherwise, as a response cache hit is (api_service.cpp). What handlers keep
// between calls (sdk::Remembered) is kept and checked the same way.
#pragma once

#include "core/ingest/release_catalog.hpp"

#include <lastro/sdk/plugin.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace lastro::ingest {

// Values by name at one generation: a newer generation forgets every older one's values, a
// value of an older one is not kept.
template <typename Value>
class AtGeneration {
public:
    // The value kept under `key` at `generation`, if any.
    std::optional<Value> Find(std::string_view key, std::int64_t generation) const {
        std::lock_guard lock(mutex_);
        if (generation != generation_) {
            return std::nullopt;
        }
        auto it = values_.find(key);
        return it == values_.end() ? std::nullopt : std::optional<Value>(it->second);
    }
    void Store(std::string_view key, std::int64_t generation, Value value) {
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

private:
    mutable std::mutex mutex_;
    std::int64_t generation_ = -1;
    std::map<std::string, Value, std::less<>> values_;
};

// Each dataset's latest release, nullopt when it had none at that generation.
using ReleaseCache = AtGeneration<std::optional<sdk::Release>>;

// What handlers keep between calls (sdk::Host::Keep, sdk::Remembered).
using KeptData = AtGeneration<std::shared_ptr<const void>>;

// The releases of one call: from `cache` at `generation` when it remembers them; otherwise
// read in the call's transaction, after the newest release id, and remembered at that id when
// the release read is not newer than it (then it is the dataset's latest at that id). Every id
// read goes to `saw_newest`, which keeps the generation later calls are answered at.
class CachedReleases : public sdk::Host {
public:
    CachedReleases(odb::database& db, ReleaseCache& cache, KeptData& kept, std::int64_t generation,
                   std::function<void(std::int64_t)> saw_newest)
        : catalog_(db),
          cache_(cache),
          kept_(kept),
          generation_(generation),
          saw_newest_(std::move(saw_newest)) {}

    std::optional<sdk::Release> LatestRelease(const std::string& dataset) const override;
    // Kept data at `generation`: a call that recalls some is of `generation` too.
    std::shared_ptr<const void> Recall(std::string_view key) const override;
    void Keep(std::string_view key, std::shared_ptr<const void> value) const override;
    // Whether any release or kept data of this call came from memory: then its answer is of
    // `generation`.
    bool Remembered() const { return remembered_; }

private:
    ReleaseCatalog catalog_;
    ReleaseCache& cache_;
    KeptData& kept_;
    std::int64_t generation_;
    std::function<void(std::int64_t)> saw_newest_;
    mutable bool remembered_ = false;
};

// The releases of one call on SQLite, read in its snapshot, and data kept at the newest release
// id of that snapshot (exact: a snapshot is of one generation), read when first needed unless
// the caller knows it.
class SnapshotReleases : public ReleaseCatalog {
public:
    SnapshotReleases(odb::database& db, KeptData& kept, std::optional<std::int64_t> generation)
        : ReleaseCatalog(db), kept_(kept), generation_(generation) {}

    std::shared_ptr<const void> Recall(std::string_view key) const override;
    void Keep(std::string_view key, std::shared_ptr<const void> value) const override;

private:
    std::int64_t Generation() const;

    KeptData& kept_;
    mutable std::optional<std::int64_t> generation_;
};

}  // namespace lastro::ingest
