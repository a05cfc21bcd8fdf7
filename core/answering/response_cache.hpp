// Handler answers kept in memory for the calls that repeat them (docs/performance.md).
//
// A handler's answer depends only on its operation, its parameters and the data; the data
// changes only when an ingest commits, and every ingest records a release whose id is larger
// than any before. So an answer is stored under (operation and parameters, newest release id
// read in the same transaction as the data) and is valid exactly while no newer release
// exists: the first call that sees a newer id empties the cache. (A billed call may look up the
// newest id seen without reading it; its settlement then checks it: answering.hpp.) What belongs to one call
// (request_id, the signed cursor) is never stored. The cache is bounded in bytes and drops
// the least recently used answers first; billing is unaffected (a cached answer costs what
// the operation costs).
#pragma once

#include "core/answering/frozen_answer.hpp"

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace lastro::answering {

class ResponseCache {
public:
    // 0 bytes: the cache keeps nothing and Enabled() is false.
    explicit ResponseCache(std::size_t max_bytes) : max_bytes_(max_bytes) {}

    bool Enabled() const { return max_bytes_ > 0; }

    // The answer stored for `key` at `generation`, or null. A generation newer than the
    // cache's empties it first. An answer's forms made since it was stored (frozen_answer.hpp)
    // count in the bound from the next call that finds it.
    std::shared_ptr<const FrozenAnswer> Find(const std::string& key, std::int64_t generation);

    // Keeps `answer`, computed at `generation`, unless a newer generation was seen meanwhile
    // or the answer alone exceeds the bound.
    void Store(const std::string& key, std::int64_t generation, std::shared_ptr<const FrozenAnswer> answer);

    std::size_t Bytes() const;
    std::size_t Entries() const;

private:
    struct Entry {
        std::string key;
        std::shared_ptr<const FrozenAnswer> answer;
        std::size_t bytes = 0;
        std::size_t forms = 0;  // the answer's FormBytes() when last counted
    };
    void AdvanceTo(std::int64_t generation);  // with mutex_ held
    void EvictBeyond(std::size_t bytes);      // with mutex_ held

    const std::size_t max_bytes_;
    mutable std::mutex mutex_;
    std::int64_t generation_ = 0;
    std::list<Entry> recent_;                                                 // most recently used first
    std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;  // views into Entry::key
    std::size_t bytes_ = 0;
};

}  // namespace lastro::answering
