#include <lastro/sdk/calendar.hpp>

#include <cstdio>

namespace lastro::sdk {

namespace {

constexpr int kMinYear = 1900;
constexpr int kMaxYear = 2999;

// Reads `text` as a run of ASCII digits; false on anything else (no sign, no spaces).
bool ParseDigits(std::string_view text, int& out) {
    int value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') {
            return false;
        }
        value = value * 10 + (c - '0');
    }
    out = value;
    return true;
}

bool IsLeapYear(int year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

}  // namespace

int DaysInMonth(int year, int month) {
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12) {
        return 0;
    }
    return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

std::optional<Month> Month::Parse(std::string_view text) {
    Month result;
    if (text.size() != 7 || text[4] != '-' || !ParseDigits(text.substr(0, 4), result.year) ||
        !ParseDigits(text.substr(5, 2), result.month)) {
        return std::nullopt;
    }
    if (result.year < kMinYear || result.year > kMaxYear || result.month < 1 || result.month > 12) {
        return std::nullopt;
    }
    return result;
}

std::string Month::ToString() const {
    char text[32];
    std::snprintf(text, sizeof text, "%04d-%02d", year, month);
    return text;
}

Month Month::Previous() const {
    return month == 1 ? Month{year - 1, 12} : Month{year, month - 1};
}

Month Month::Next() const {
    return month == 12 ? Month{year + 1, 1} : Month{year, month + 1};
}

std::optional<Date> Date::Parse(std::string_view text) {
    if (text.size() != 10 || text[7] != '-') {
        return std::nullopt;
    }
    auto month = Month::Parse(text.substr(0, 7));
    Date result;
    if (!month || !ParseDigits(text.substr(8, 2), result.day)) {
        return std::nullopt;
    }
    result.year = month->year;
    result.month = month->month;
    if (result.day < 1 || result.day > DaysInMonth(result.year, result.month)) {
        return std::nullopt;
    }
    return result;
}

std::string Date::ToString() const {
    char text[48];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d", year, month, day);
    return text;
}

std::string Rfc3339Utc(std::time_t t) {
    std::tm utc{};
    gmtime_r(&t, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

Date UtcDate(std::time_t t) {
    std::tm utc{};
    gmtime_r(&t, &utc);
    return {utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday};
}

}  // namespace lastro::sdk
