// Days as the daily tables store them: the integer YYYYMMDD (20240131), which sorts like the
// date, takes 4 bytes and is the range key PostgreSQL partitions the values on.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <string>

namespace lastro::series {

inline int DayNumber(const sdk::Date& date) {
    return date.year * 10000 + date.month * 100 + date.day;
}

inline sdk::Date DateOfNumber(int number) {
    return {number / 10000, number / 100 % 100, number % 100};
}

// "2024-01-31"
inline std::string DayText(int number) {
    return DateOfNumber(number).ToString();
}

}  // namespace lastro::series
