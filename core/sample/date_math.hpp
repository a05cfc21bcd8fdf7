// Day arithmetic on sdk::Date for building plausible registry timelines.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <cstdint>

namespace lastro::sample {

class Prng;

// Days since 1970-01-01 (proleptic Gregorian calendar), and back.
std::int64_t DayNumber(const sdk::Date& date);
sdk::Date FromDayNumber(std::int64_t days);

sdk::Date AddDays(const sdk::Date& date, std::int64_t days);
// 0 = Sunday ... 6 = Saturday.
int Weekday(const sdk::Date& date);
// The date itself when it is Monday..Friday, else the following Monday.
sdk::Date NextWeekday(const sdk::Date& date);
sdk::Date LastWeekdayOfMonth(int year, int month);
sdk::Date LastDayOfMonth(int year, int month);

// Uniform in [first, last].
sdk::Date RandomDate(Prng& rng, const sdk::Date& first, const sdk::Date& last);
// Skewed towards `last` (the later of two uniform draws): the FIDC industry grew over time.
sdk::Date RecentSkewedDate(Prng& rng, const sdk::Date& first, const sdk::Date& last);

inline const sdk::Date& Earlier(const sdk::Date& a, const sdk::Date& b) {
    return b < a ? b : a;
}
inline const sdk::Date& Later(const sdk::Date& a, const sdk::Date& b) {
    return a < b ? b : a;
}

}  // namespace lastro::sample
