#include <lastro/sdk/ingest/values.hpp>

#include <lastro/sdk/cnpj.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace lastro::sdk {

namespace {

bool IsBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool IsDigit(char c) {
    return c >= '0' && c <= '9';
}

// [-]digits[<point>digits], nothing else.
bool IsPlainDecimal(std::string_view text, DecimalFormat format) {
    std::size_t i = 0;
    if (i < text.size() && text[i] == '-' && format.sign == Sign::kAny) {
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
    if (text[i] != format.point) {
        return false;
    }
    const std::size_t fraction_start = ++i;
    while (i < text.size() && IsDigit(text[i])) {
        ++i;
    }
    return i > fraction_start && i == text.size();
}

// Converts a plain decimal with a '.' point; false when it does not fit a finite double.
bool ConvertDecimal(std::string_view text, double& value) {
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
    return error == std::errc() && ptr == end && std::isfinite(value);
}

// "dd" of the digits at text[pos], or -1.
int TwoDigits(std::string_view text, std::size_t pos) {
    if (pos + 2 > text.size() || !IsDigit(text[pos]) || !IsDigit(text[pos + 1])) {
        return -1;
    }
    return (text[pos] - '0') * 10 + (text[pos + 1] - '0');
}

std::string ReasonText(const std::string& column, const std::string& problem,
                       std::optional<std::string_view> value) {
    return column + " " + problem + (value ? ": " + Quoted(*value) : std::string());
}

}  // namespace

std::string_view TrimBlanks(std::string_view text) {
    while (!text.empty() && IsBlank(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && IsBlank(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

bool AllDigits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), IsDigit);
}

std::string LowerAscii(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    return lower;
}

std::string Quoted(std::string_view value, std::size_t max) {
    if (value.size() <= max) {
        return "'" + std::string(value) + "'";
    }
    // Cut on a character boundary, so that a message quoting UTF-8 text stays UTF-8.
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    return "'" + std::string(value.substr(0, cut)) + "...'";
}

Parsed<double> ParseDecimal(std::string_view text, DecimalFormat format) {
    text = TrimBlanks(text);
    if (text.empty()) {
        return {};
    }
    if (!IsPlainDecimal(text, format)) {
        return {ValueStatus::kInvalid, 0};
    }
    double value = 0;
    bool converted;
    if (format.point == '.') {
        converted = ConvertDecimal(text, value);
    } else {
        std::string pointed(text);
        std::replace(pointed.begin(), pointed.end(), format.point, '.');
        converted = ConvertDecimal(pointed, value);
    }
    if (!converted) {
        return {ValueStatus::kInvalid, 0};
    }
    return {ValueStatus::kValue, value};
}

ValueStatus CheckDecimal(std::string_view text, DecimalFormat format) {
    // A plain decimal this short is 0 or between 1e-299 and 1e300 in magnitude: a finite,
    // normal double, which from_chars always converts.
    constexpr std::size_t kAlwaysConvertible = 300;
    const std::string_view trimmed = TrimBlanks(text);
    if (trimmed.empty()) {
        return ValueStatus::kEmpty;
    }
    if (trimmed.size() <= kAlwaysConvertible) {
        return IsPlainDecimal(trimmed, format) ? ValueStatus::kValue : ValueStatus::kInvalid;
    }
    return ParseDecimal(trimmed, format).status;
}

Parsed<std::int64_t> ParseInteger(std::string_view text, Sign sign) {
    text = TrimBlanks(text);
    if (text.empty()) {
        return {};
    }
    const std::string_view digits = sign == Sign::kAny && text.front() == '-' ? text.substr(1) : text;
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    if (!AllDigits(digits) || error != std::errc() || ptr != end) {
        return {ValueStatus::kInvalid, 0};
    }
    return {ValueStatus::kValue, value};
}

Parsed<Date> ParseDate(std::string_view text, DateFormat format) {
    text = TrimBlanks(text);
    if (text.empty()) {
        return {};
    }
    std::optional<Date> date;
    switch (format) {
        case DateFormat::kIso:
            date = Date::Parse(text);
            break;
        case DateFormat::kBrazilian:
            // dd/mm/yyyy: the same day as yyyy-mm-dd, so Date::Parse checks it.
            if (text.size() == 10 && text[2] == '/' && text[5] == '/' && TwoDigits(text, 0) >= 0 &&
                TwoDigits(text, 3) >= 0) {
                date = Date::Parse(std::string(text.substr(6)) + "-" + std::string(text.substr(3, 2)) + "-" +
                                   std::string(text.substr(0, 2)));
            }
            break;
        case DateFormat::kCompact:
            if (text.size() == 8 && AllDigits(text)) {
                date = Date::Parse(std::string(text.substr(0, 4)) + "-" + std::string(text.substr(4, 2)) +
                                   "-" + std::string(text.substr(6, 2)));
            }
            break;
    }
    if (!date) {
        return {ValueStatus::kInvalid, {}};
    }
    return {ValueStatus::kValue, *date};
}

std::string_view DateFormatName(DateFormat format) {
    switch (format) {
        case DateFormat::kIso:
            return "a YYYY-MM-DD date";
        case DateFormat::kBrazilian:
            return "a DD/MM/YYYY date";
        case DateFormat::kCompact:
            return "a YYYYMMDD date";
    }
    return "a date";
}

std::optional<std::string> DocumentOrText(std::string_view text) {
    text = TrimBlanks(text);
    if (text.empty()) {
        return std::nullopt;
    }
    if (auto parsed = ParseCnpj(text); parsed.digits) {
        return parsed.digits;
    }
    return std::string(text);
}

std::string LocalDate(std::time_t time) {
    std::tm parts{};
    localtime_r(&time, &parts);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &parts);
    return text;
}

FieldError::FieldError(std::string file, std::size_t line, std::string column, std::string problem,
                       std::optional<std::string_view> value)
    : IngestError(std::move(file), line, ReasonText(column, problem, value)),
      column_(std::move(column)),
      reason_(ReasonText(column_, problem, value)) {}

}  // namespace lastro::sdk
