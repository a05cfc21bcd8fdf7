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
#include <unordered_map>

namespace lastro::ingest {

class ReleaseCache {
public:
    // nullopt: the dataset had no release at that generation.
    using Entry = std::optional<sdk::Release>;

    // The dataset's latest release at `generation`, when remembered.
    std::optional<Entry> Find(const std::string& dataset, std::int64_t generation) const;
    // Remembers the dataset's latest release at `generation`; a newer generation forgets every
    // older one's releases, an older one is ignored.
    void Store(const std::string& dataset, std::int64_t generation, Entry release);

private:
    mutable std::mutex mutex_;
    std::int64_t generation_ = -1;
    std::unordered_map<std::string, Entry> releases_;
};

// What handlers keep between calls (sdk::Host::Keep, sdk::Remembered), at one generation: a
// newer generation forgets what older ones kept, an older one keeps nothing.
class KeptData {
public:
    // What was kept under `key` at `generation`, else nullptr.
    std::shared_ptr<const void> Find(std::string_view key, std::int64_t generation) const;
    void Store(std::string_view key, std::int64_t generation, std::shared_ptr<const void> value);

private:
    mutable std::mutex mutex_;
    std::int64_t generation_ = -1;
    std::map<std::string, std::shared_ptr<const void>, std::less<>> values_;
};

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
