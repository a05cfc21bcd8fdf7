// Full-snapshot ingests (docs/ingest-kit.md): a file that lists every row of its scope (CVM's
// registry, a year of documents, ANBIMA's subclasses) is applied in place. Rows are matched by a
// stable key; a row is new (inserted), changed (updated: its fingerprint differs), unchanged,
// or gone (removed: stored but no longer listed). The counts go to the IngestSummary and the
// persistence is the plugin's, through callbacks.
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <boost/config.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lastro::sdk {

// A row's stored fields reduced to a number, to tell a changed row from an unchanged one
// without a query per row. Fields are written with their type and length, so ("ab", "c") and
// ("a", "bc") differ, and a null differs from every value.
class BOOST_SYMBOL_VISIBLE Fingerprint {
public:
    Fingerprint& operator<<(std::string_view value);
    Fingerprint& operator<<(const std::string& value) { return *this << std::string_view(value); }
    Fingerprint& operator<<(const char* value) { return *this << std::string_view(value); }
    Fingerprint& operator<<(std::int64_t value);
    Fingerprint& operator<<(double value);
    Fingerprint& operator<<(bool value);
    template <std::integral T>
        requires(!std::same_as<T, bool> && !std::same_as<T, std::int64_t>)
    Fingerprint& operator<<(T value) {
        return *this << static_cast<std::int64_t>(value);
    }
    template <typename T>
    Fingerprint& operator<<(const std::optional<T>& value) {
        if (value) {
            return *this << *value;
        }
        text_ += 'n';
        return *this;
    }

    std::uint64_t Value() const;

private:
    std::string text_;  // a canonical text of the fields, hashed by Value()
};

// The fingerprint of `fields`, in order: FingerprintOf(row.id, row.name, row.amount).
template <typename... Fields>
std::uint64_t FingerprintOf(const Fields&... fields) {
    Fingerprint fingerprint;
    (fingerprint << ... << fields);
    return fingerprint.Value();
}

enum class SnapshotChange { kInserted, kUpdated, kUnchanged };

// The bookkeeping of a snapshot: the stored keys with their fingerprints, which of them the
// snapshot listed, and the counts (inserted, updated, unchanged, removed) in the summary.
class BOOST_SYMBOL_VISIBLE SnapshotDiff {
public:
    explicit SnapshotDiff(IngestSummary& summary) : summary_(summary) {}

    // A stored row of the snapshot's scope; call for each before the first Offer.
    void AddStored(std::string key, std::uint64_t fingerprint);
    bool IsStored(std::string_view key) const;
    // A row of the snapshot: what it does to the stored rows, counted. A stored key offered
    // twice is a programming error (std::logic_error): the ingester keeps one row per key.
    SnapshotChange Offer(const std::string& key, std::uint64_t fingerprint);
    // The stored keys no row was offered for, counted as removed; call once, after the last Offer.
    std::vector<std::string> TakeRemoved();

private:
    struct Stored {
        std::uint64_t fingerprint = 0;
        bool seen = false;
    };
    IngestSummary& summary_;
    std::unordered_map<std::string, Stored> stored_;
};

// SnapshotDiff driving the plugin's persistence: insert and update get the row, remove the key.
template <typename Row>
class SnapshotApplier {
public:
    struct Persistence {
        std::function<void(const Row&)> insert;
        std::function<void(const Row&)> update;
        std::function<void(const std::string& key)> remove;
    };

    SnapshotApplier(IngestSummary& summary, Persistence persistence)
        : diff_(summary), persistence_(std::move(persistence)) {}

    void AddStored(std::string key, std::uint64_t fingerprint) {
        diff_.AddStored(std::move(key), fingerprint);
    }
    bool IsStored(std::string_view key) const { return diff_.IsStored(key); }

    SnapshotChange Apply(const std::string& key, const Row& row, std::uint64_t fingerprint) {
        const SnapshotChange change = diff_.Offer(key, fingerprint);
        if (change == SnapshotChange::kInserted) {
            persistence_.insert(row);
        } else if (change == SnapshotChange::kUpdated) {
            persistence_.update(row);
        }
        return change;
    }

    // Removes the stored rows the snapshot no longer lists; call once, after the last Apply.
    void RemoveUnseen() {
        for (const std::string& key : diff_.TakeRemoved()) {
            persistence_.remove(key);
        }
    }

private:
    SnapshotDiff diff_;
    Persistence persistence_;
};

// A snapshot file that repeats a key: one row per key is kept, the one of highest `Rank`, among
// equal ranks the later line; the others are reported. Only small records are kept, so memory
// does not grow with the width of the file.
template <typename Rank = int>
class KeepOnePerKey {
public:
    void Add(std::string key, std::size_t line, Rank rank = {}) {
        auto& candidates = by_key_[std::move(key)];
        candidates.push_back({line, std::move(rank)});
    }

    // Call once, after the last Add: marks the kept lines and calls `dropped(line, key,
    // kept_line)` for every other row, in line order.
    void Resolve(
        const std::function<void(std::size_t line, const std::string& key, std::size_t kept)>& dropped) {
        std::vector<std::pair<std::size_t, std::pair<const std::string*, std::size_t>>> others;
        for (const auto& [key, candidates] : by_key_) {
            const Candidate* best = &candidates.front();
            for (const Candidate& candidate : candidates) {
                if (best->rank < candidate.rank ||
                    (!(candidate.rank < best->rank) && candidate.line > best->line)) {
                    best = &candidate;
                }
            }
            if (kept_.size() <= best->line) {
                kept_.resize(best->line + 1, 0);
            }
            kept_[best->line] = 1;
            for (const Candidate& candidate : candidates) {
                if (&candidate != best) {
                    others.push_back({candidate.line, {&key, best->line}});
                }
            }
        }
        std::sort(others.begin(), others.end());
        for (const auto& [line, kept] : others) {
            dropped(line, *kept.first, kept.second);
        }
    }

    bool IsKept(std::size_t line) const { return line < kept_.size() && kept_[line]; }
    std::size_t Keys() const { return by_key_.size(); }

private:
    struct Candidate {
        std::size_t line = 0;
        Rank rank;
    };
    std::unordered_map<std::string, std::vector<Candidate>> by_key_;
    std::vector<char> kept_;
};

}  // namespace lastro::sdk
