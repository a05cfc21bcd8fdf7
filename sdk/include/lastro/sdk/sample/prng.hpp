// Deterministic pseudo-random numbers for sample writers. Our own splitmix64 instead of
// <random> distributions, whose output differs between standard libraries: the same seed must
// give the same bytes on every platform.
#pragma once

#include <boost/config.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

namespace lastro::sdk::sample {

class BOOST_SYMBOL_VISIBLE Prng {
public:
    explicit Prng(std::uint64_t seed) : state_(seed) {}

    // An independent generator for one part of a sample (a stream and an index inside it), so
    // drawing more numbers for one item never shifts what another item gets.
    static Prng ForStream(std::uint64_t seed, std::uint64_t stream, std::uint64_t index = 0);

    std::uint64_t Next();
    // Uniform in [0, bound); bound must be positive.
    std::uint64_t Below(std::uint64_t bound);
    // Uniform in [low, high], both included.
    std::int64_t Between(std::int64_t low, std::int64_t high);
    // True with probability per_mille / 1000.
    bool Chance(unsigned per_mille);
    // An index drawn with the given relative weights (at least one must be positive).
    std::size_t Weighted(std::span<const unsigned> weights);
    std::size_t Weighted(std::initializer_list<unsigned> weights) {
        return Weighted(std::span<const unsigned>(weights.begin(), weights.size()));
    }

    template <typename Container>
    const auto& Pick(const Container& items) {
        return items[static_cast<std::size_t>(Below(items.size()))];
    }

private:
    std::uint64_t state_;
};

// The stream of one dataset, or of one part of it ("cvm.cda_fi", "cvm.cda_fi/positions"): the
// 64-bit FNV-1a hash of the key, so each dataset draws from streams of its own whatever other
// datasets and plugins draw, and a new dataset never changes another's bytes.
constexpr std::uint64_t StreamOf(std::string_view key) {
    std::uint64_t hash = 0xCBF29CE484222325ULL;
    for (const char c : key) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
    }
    return hash;
}

}  // namespace lastro::sdk::sample
