#include "core/answering/response_cache.hpp"

#include <boost/json/serialize.hpp>

namespace lastro::answering {
namespace {

// What an entry costs beyond its text: the list node, the index slot, the shared answer.
constexpr std::size_t kEntryOverhead = 160;

}  // namespace

std::shared_ptr<const FrozenAnswer> ResponseCache::Find(const std::string& key, std::int64_t generation) {
    if (!Enabled()) {
        return nullptr;
    }
    std::lock_guard lock(mutex_);
    AdvanceTo(generation);
    if (generation != generation_) {
        return nullptr;  // the caller's transaction predates the newest release
    }
    auto it = index_.find(key);
    if (it == index_.end()) {
        return nullptr;
    }
    recent_.splice(recent_.begin(), recent_, it->second);
    Entry& entry = *it->second;
    std::shared_ptr<const FrozenAnswer> answer = entry.answer;
    // Forms made since it was stored (a CSV table, a gzip piece) count from now on.
    if (const std::size_t forms = answer->FormBytes(); forms != entry.forms) {
        bytes_ += forms - entry.forms;
        entry.bytes += forms - entry.forms;
        entry.forms = forms;
        EvictBeyond(max_bytes_);
    }
    return answer;
}

void ResponseCache::Store(const std::string& key, std::int64_t generation,
                          std::shared_ptr<const FrozenAnswer> answer) {
    if (!Enabled() || !answer) {
        return;
    }
    const std::size_t forms = answer->FormBytes();
    const std::size_t bytes = answer->TextBytes() + forms + key.size() + kEntryOverhead;
    std::lock_guard lock(mutex_);
    AdvanceTo(generation);
    if (generation != generation_ || bytes > max_bytes_) {
        return;
    }
    if (auto it = index_.find(key); it != index_.end()) {
        const auto entry = it->second;
        bytes_ -= entry->bytes;
        index_.erase(it);  // before the entry whose key it views
        recent_.erase(entry);
    }
    EvictBeyond(max_bytes_ - bytes);
    recent_.push_front(Entry{key, std::move(answer), bytes, forms});
    index_.emplace(recent_.front().key, recent_.begin());
    bytes_ += bytes;
}

std::size_t ResponseCache::Bytes() const {
    std::lock_guard lock(mutex_);
    return bytes_;
}

std::size_t ResponseCache::Entries() const {
    std::lock_guard lock(mutex_);
    return recent_.size();
}

void ResponseCache::AdvanceTo(std::int64_t generation) {
    if (generation > generation_) {
        index_.clear();
        recent_.clear();
        bytes_ = 0;
        generation_ = generation;
    }
}

void ResponseCache::EvictBeyond(std::size_t bytes) {
    while (bytes_ > bytes && !recent_.empty()) {
        const Entry& last = recent_.back();
        bytes_ -= last.bytes;
        index_.erase(last.key);
        recent_.pop_back();
    }
}

}  // namespace lastro::answering
