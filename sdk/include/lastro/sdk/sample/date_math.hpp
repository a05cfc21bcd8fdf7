// Day arithmetic on sdk::Date for plausible timelines in sample data.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <boost/config.hpp>

#include <cstdint>

namespace lastro::sdk::sample {

class Prng;

// Days since 1970-01-01 (proleptic Gregorian calendar), and back.
BOOST_SYMBOL_VISIBLE std::int64_t DayNumber(const Date& date);
BOOST_SYMBOL_VISIBLE Date FromDayNumber(std::int64_t days);

BOOST_SYMBOL_VISIBLE Date AddDays(const Date& date, std::int64_t days);
// 0 = Sunday ... 6 = Saturday.
BOOST_SYMBOL_VISIBLE int Weekday(const Date& date);
// The date itself when it is Monday..Friday, else the following Monday.
BOOST_SYMBOL_VISIBLE Date NextWeekday(const Date& date);
BOOST_SYMBOL_VISIBLE Date LastWeekdayOfMonth(int year, int month);
BOOST_SYMBOL_VISIBLE Date LastDayOfMonth(int year, int month);

// Uniform in [first, last].
BOOST_SYMBOL_VISIBLE Date RandomDate(Prng& rng, const Date& first, const Date& last);
// Skewed towards `last` (the later of two uniform draws): for populations that grew over time.
BOOST_SYMBOL_VISIBLE Date RecentSkewedDate(Prng& rng, const Date& first, const Date& last);

inline const Date& Earlier(const Date& a, const Date& b) {
    return b < a ? b : a;
}
inline const Date& Later(const Date& a, const Date& b) {
    return a < b ? b : a;
}

}  // namespace lastro::sdk::sample
