#include <lastro/sdk/sample/prng.hpp>

#include <stdexcept>

namespace lastro::sdk::sample {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

std::uint64_t Mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

}  // namespace

Prng Prng::ForStream(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
    const std::uint64_t per_stream = Mix(seed + kGolden * (stream + 1));
    return Prng(Mix(per_stream ^ Mix(index + 0xD1B54A32D192ED03ULL)));
}

std::uint64_t Prng::Next() {
    state_ += kGolden;
    return Mix(state_);
}

std::uint64_t Prng::Below(std::uint64_t bound) {
    if (bound == 0) {
        throw std::invalid_argument("Prng::Below needs a positive bound");
    }
    // Rejection keeps the draw unbiased: values under `threshold` would favour small results.
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        const std::uint64_t value = Next();
        if (value >= threshold) {
            return value % bound;
        }
    }
}

std::int64_t Prng::Between(std::int64_t low, std::int64_t high) {
    if (high < low) {
        throw std::invalid_argument("Prng::Between needs low <= high");
    }
    const auto span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
    if (span == 0) {  // the whole 64-bit range
        return static_cast<std::int64_t>(Next());
    }
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + Below(span));
}

bool Prng::Chance(unsigned per_mille) {
    return Below(1000) < per_mille;
}

std::size_t Prng::Weighted(std::span<const unsigned> weights) {
    std::uint64_t total = 0;
    for (unsigned weight : weights) {
        total += weight;
    }
    if (total == 0) {
        throw std::invalid_argument("Prng::Weighted needs a positive weight");
    }
    std::uint64_t draw = Below(total);
    for (std::size_t i = 0; i < weights.size(); ++i) {
        if (draw < weights[i]) {
            return i;
        }
        draw -= weights[i];
    }
    return weights.size() - 1;  // unreachable: draw < total
}

}  // namespace lastro::sdk::sample
