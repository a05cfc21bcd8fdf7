// Exact integer arithmetic for the figures a sample prints: money in cents, quantities and
// prices in units of 1e-8, shares in parts per million. Nothing is computed in floating point,
// so a total printed in one table equals the sum of the parts printed in another, and the bytes
// are the same on every platform.
#pragma once

#include <boost/config.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lastro::sdk::sample {

inline constexpr std::int64_t kPpm = 1'000'000;
inline constexpr std::int64_t kE8 = 100'000'000;  // quantities and prices with 8 decimals

// round(a * b / c), halves away from zero; c must not be zero.
BOOST_SYMBOL_VISIBLE std::int64_t MulDiv(std::int64_t a, std::int64_t b, std::int64_t c);

// `amount` times a share in parts per million, rounded.
inline std::int64_t Share(std::int64_t amount, std::int64_t ppm) {
    return MulDiv(amount, ppm, kPpm);
}

// The value in cents of `quantity` units (1e-8) at `price` (R$ 1e-8 per unit), rounded.
BOOST_SYMBOL_VISIBLE std::int64_t ValueInCents(std::int64_t quantity, std::int64_t price);

// Sums quantity times price exactly and rounds once: a total is round(sum of quantity x price, 2).
class BOOST_SYMBOL_VISIBLE ValueSum {
public:
    void Add(std::int64_t quantity, std::int64_t price) { total_ += static_cast<__int128>(quantity) * price; }
    std::int64_t Cents() const;

private:
    __int128 total_ = 0;
};

// Splits `total` in proportion to non-negative weights; the parts sum exactly to `total`
// (largest remainders get the leftover units, earlier parts first on ties). All-zero weights
// put everything in the first part.
BOOST_SYMBOL_VISIBLE std::vector<std::int64_t> Allocate(std::int64_t total,
                                                        std::span<const std::int64_t> weights);

// "1234.56" from 123456 with 2 decimals; "-0.35"; "12.34567800" with 8.
BOOST_SYMBOL_VISIBLE std::string Decimal(std::int64_t units, int decimals);
// An empty field when absent.
BOOST_SYMBOL_VISIBLE std::string Decimal(const std::optional<std::int64_t>& units, int decimals);
inline std::string Cents(std::int64_t cents) {
    return Decimal(cents, 2);
}

}  // namespace lastro::sdk::sample
