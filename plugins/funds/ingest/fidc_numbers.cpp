#include "ingest/fidc_numbers.hpp"
#include "ingest/field_text.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace lastro::funds {

namespace {

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

// [-]digits[.digits], nothing else.
bool IsPlainDecimal(std::string_view text) {
    std::size_t i = 0;
    if (i < text.size() && text[i] == '-') {
        ++i;
    }
    const std::size_t integer_start = i;
    while (i < text.size() && IsDigit(text[i])) {
        ++i;
    }
    if (i == integer_start) {
        return false;
    }
    if (i == text.size()) {
        return true;
    }
    if (text[i] != '.') {
        return false;
    }
    const std::size_t fraction_start = ++i;
    while (i < text.size() && IsDigit(text[i])) {
        ++i;
    }
    return i > fraction_start && i == text.size();
}

}  // namespace

ParsedDecimal ParseFidcDecimal(std::string_view text) {
    text = TrimBlanks(text);
    if (text.empty()) {
        return {};
    }
    if (!IsPlainDecimal(text)) {
        return {NumberStatus::kInvalid, 0};
    }
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
    if (error != std::errc() || ptr != end || !std::isfinite(value)) {
        return {NumberStatus::kInvalid, 0};
    }
    return {NumberStatus::kValue, value};
}

NumberStatus FidcDecimalStatus(std::string_view text) {
    // A plain decimal this short is 0 or between 1e-299 and 1e300 in magnitude: a finite,
    // normal double, which from_chars always converts.
    constexpr std::size_t kAlwaysConvertible = 300;
    const std::string_view trimmed = TrimBlanks(text);
    if (trimmed.empty()) {
        return NumberStatus::kEmpty;
    }
    if (trimmed.size() <= kAlwaysConvertible) {
        return IsPlainDecimal(trimmed) ? NumberStatus::kValue : NumberStatus::kInvalid;
    }
    return ParseFidcDecimal(trimmed).status;
}

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
