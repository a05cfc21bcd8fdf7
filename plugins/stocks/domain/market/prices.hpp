// Prices as COTAHIST publishes them: integers with two implied decimals, per `quotation_factor`
// shares (FATCOT: 1, or 1,000 for the lines quoted per lot). Every price served is per share.
#pragma once

#include <cstdint>
#include <optional>

namespace lastro::stocks {

inline double PerShare(std::int64_t hundredths, std::int64_t quotation_factor) {
    return static_cast<double>(hundredths) / 100.0 / static_cast<double>(quotation_factor);
}

inline std::optional<double> PerShare(const std::optional<std::int64_t>& hundredths,
                                      std::int64_t quotation_factor) {
    return hundredths ? std::optional<double>(PerShare(*hundredths, quotation_factor)) : std::nullopt;
}

// A traded value (VOLTOT) in reais.
inline std::optional<double> Reais(const std::optional<std::int64_t>& hundredths) {
    return hundredths ? std::optional<double>(static_cast<double>(*hundredths) / 100.0) : std::nullopt;
}

}  // namespace lastro::stocks
