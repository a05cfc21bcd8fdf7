// Deterministic pseudo-random numbers for the sample generator. Our own splitmix64 instead of
// <random> distributions, whose output differs between standard libraries: the same seed must
// give the same bytes on every platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

namespace lastro::sample {

class Prng {
public:
    explicit Prng(std::uint64_t seed) : state_(seed) {}

    // An independent generator for one part of the universe (a stream and an index inside it),
    // so drawing more numbers for one fund never shifts what another fund gets.
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

}  // namespace lastro::sample
