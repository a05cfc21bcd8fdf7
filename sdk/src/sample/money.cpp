#include <lastro/sdk/sample/money.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace lastro::sdk::sample {

std::int64_t MulDiv(std::int64_t a, std::int64_t b, std::int64_t c) {
    if (c == 0) {
        throw std::invalid_argument("MulDiv by zero");
    }
    __int128 numerator = static_cast<__int128>(a) * b;
    const bool negative = (numerator < 0) != (c < 0);
    if (numerator < 0) {
        numerator = -numerator;
    }
    const __int128 divisor = c < 0 ? -static_cast<__int128>(c) : static_cast<__int128>(c);
    const __int128 rounded = (numerator + divisor / 2) / divisor;
    return static_cast<std::int64_t>(negative ? -rounded : rounded);
}

std::int64_t ValueInCents(std::int64_t quantity, std::int64_t price) {
    // quotas (1e-8) times R$ (1e-8) is 1e-16 R$, that is 1e-14 cents.
    const __int128 product = static_cast<__int128>(quantity) * price;
    const __int128 unit = static_cast<__int128>(kE8) * kE8 / 100;
    const __int128 half = unit / 2;
    return static_cast<std::int64_t>(product >= 0 ? (product + half) / unit : -((-product + half) / unit));
}

std::int64_t ValueSum::Cents() const {
    const __int128 unit = static_cast<__int128>(kE8) * kE8 / 100;
    const __int128 half = unit / 2;
    return static_cast<std::int64_t>(total_ >= 0 ? (total_ + half) / unit : -((-total_ + half) / unit));
}

std::vector<std::int64_t> Allocate(std::int64_t total, std::span<const std::int64_t> weights) {
    std::vector<std::int64_t> parts(weights.size(), 0);
    if (weights.empty()) {
        return parts;
    }
    __int128 weight_sum = 0;
    for (std::int64_t weight : weights) {
        weight_sum += std::max<std::int64_t>(weight, 0);
    }
    if (weight_sum == 0) {
        parts[0] = total;
        return parts;
    }
    const bool negative = total < 0;
    const __int128 magnitude = negative ? -static_cast<__int128>(total) : total;
    std::vector<std::pair<__int128, std::size_t>> remainders;
    remainders.reserve(weights.size());
    __int128 given = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        const __int128 scaled = magnitude * std::max<std::int64_t>(weights[i], 0);
        parts[i] = static_cast<std::int64_t>(scaled / weight_sum);
        given += parts[i];
        remainders.emplace_back(scaled % weight_sum, i);
    }
    std::stable_sort(remainders.begin(), remainders.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; given < magnitude; ++k, ++given) {
        ++parts[remainders[k % remainders.size()].second];
    }
    if (negative) {
        for (std::int64_t& part : parts) {
            part = -part;
        }
    }
    return parts;
}

std::string Decimal(std::int64_t units, int decimals) {
    std::int64_t scale = 1;
    for (int i = 0; i < decimals; ++i) {
        scale *= 10;
    }
    const bool negative = units < 0;
    const std::uint64_t magnitude =
        negative ? static_cast<std::uint64_t>(-(units + 1)) + 1 : static_cast<std::uint64_t>(units);
    char text[64];
    if (decimals == 0) {
        std::snprintf(text, sizeof text, "%s%llu", negative ? "-" : "",
                      static_cast<unsigned long long>(magnitude));
    } else {
        std::snprintf(text, sizeof text, "%s%llu.%0*llu", negative ? "-" : "",
                      static_cast<unsigned long long>(magnitude / static_cast<std::uint64_t>(scale)),
                      decimals,
                      static_cast<unsigned long long>(magnitude % static_cast<std::uint64_t>(scale)));
    }
    return text;
}

std::string Decimal(const std::optional<std::int64_t>& units, int decimals) {
    return units ? Decimal(*units, decimals) : std::string();
}

}  // namespace lastro::sdk::sample
