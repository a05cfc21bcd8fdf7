// Months (YYYY-MM) and dates (YYYY-MM-DD) as the API and CVM's files write them, and an
// ingest's clock (std::time_t) as UTC text.
#pragma once

#include <boost/config.hpp>

#include <compare>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace lastro::sdk {

struct BOOST_SYMBOL_VISIBLE Month {
    int year = 0;
    int month = 0;  // 1..12

    // Strict "YYYY-MM" with year 1900..2999 and month 01..12; nullopt otherwise.
    static std::optional<Month> Parse(std::string_view text);
    std::string ToString() const;
    Month Previous() const;
    Month Next() const;
    auto operator<=>(const Month&) const = default;
};

struct BOOST_SYMBOL_VISIBLE Date {
    int year = 0;
    int month = 0;
    int day = 0;

    // Strict "YYYY-MM-DD" naming a real calendar day (leap years included), year 1900..2999 as
    // for Month; nullopt otherwise.
    static std::optional<Date> Parse(std::string_view text);
    std::string ToString() const;
    Month ToMonth() const { return {year, month}; }
    auto operator<=>(const Date&) const = default;
};

// 28..31; 0 for a month outside 1..12.
int DaysInMonth(int year, int month);

// `t` in UTC as RFC 3339 to the second, "2026-11-22T01:02:03Z": how rows say when an ingest
// stored them (IngestContext::now), never in the local zone.
BOOST_SYMBOL_VISIBLE std::string Rfc3339Utc(std::time_t t);
// The calendar day of `t` in UTC.
BOOST_SYMBOL_VISIBLE Date UtcDate(std::time_t t);

}  // namespace lastro::sdk
