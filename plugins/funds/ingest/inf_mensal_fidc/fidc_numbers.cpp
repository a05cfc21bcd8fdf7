#include "ingest/inf_mensal_fidc/fidc_numbers.hpp"

#include <cmath>

namespace lastro::funds {

ParsedInteger ParseFidcInteger(std::string_view text) {
    const ParsedDecimal decimal = ParseFidcDecimal(text);
    if (decimal.status != NumberStatus::kValue) {
        return {decimal.status, 0};
    }
    // 2^53: beyond it a double no longer holds every integer exactly.
    constexpr double kExactLimit = 9007199254740992.0;
    if (std::trunc(decimal.value) != decimal.value || std::fabs(decimal.value) > kExactLimit) {
        return {NumberStatus::kInvalid, 0};
    }
    return {NumberStatus::kValue, static_cast<std::int64_t>(decimal.value)};
}

std::optional<double> DecimalOrNull(std::string_view text) {
    const ParsedDecimal parsed = ParseFidcDecimal(text);
    if (parsed.status != NumberStatus::kValue) {
        return std::nullopt;
    }
    return parsed.value;
}

std::optional<std::int64_t> IntegerOrNull(std::string_view text) {
    const ParsedInteger parsed = ParseFidcInteger(text);
    if (parsed.status != NumberStatus::kValue) {
        return std::nullopt;
    }
    return parsed.value;
}

}  // namespace lastro::funds
