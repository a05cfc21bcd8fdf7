// The lines of one CDA member already read, to collapse identical repeated lines without
// keeping the lines: a 128-bit digest per line (two unrelated 64-bit hashes) in an
// open-addressing table of 16 bytes a slot, at most half full. A false match needs both hashes
// to collide, which is negligible at CVM's sizes (millions of lines).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace lastro::funds {

struct LineDigest {
    std::uint64_t first = 0;
    std::uint64_t second = 0;
    bool operator==(const LineDigest&) const = default;
};

inline LineDigest DigestOf(std::string_view text) {
    // FNV-1a beside the standard library's hash (a different algorithm).
    std::uint64_t fnv = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) {
        fnv = (fnv ^ c) * 0x100000001b3ULL;
    }
    return {fnv, static_cast<std::uint64_t>(std::hash<std::string_view>{}(text))};
}

class SeenLines {
public:
    // True when `digest` was not seen before (and records it).
    bool Insert(LineDigest digest) {
        if (digest == LineDigest{}) {
            digest.second = 1;  // the all-zero digest marks an empty slot
        }
        if ((size_ + 1) * 2 > slots_.size()) {
            Grow();
        }
        if (!Place(slots_, digest)) {
            return false;
        }
        ++size_;
        return true;
    }

private:
    static bool Place(std::vector<LineDigest>& slots, const LineDigest& digest) {
        const std::size_t mask = slots.size() - 1;
        for (std::size_t i = digest.first & mask;; i = (i + 1) & mask) {
            if (slots[i] == LineDigest{}) {
                slots[i] = digest;
                return true;
            }
            if (slots[i] == digest) {
                return false;
            }
        }
    }

    void Grow() {
        std::vector<LineDigest> bigger(slots_.empty() ? 1024 : slots_.size() * 2);
        for (const LineDigest& digest : slots_) {
            if (!(digest == LineDigest{})) {
                Place(bigger, digest);
            }
        }
        slots_.swap(bigger);
    }

    std::vector<LineDigest> slots_;
    std::size_t size_ = 0;
};

}  // namespace lastro::funds
