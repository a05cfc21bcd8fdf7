#include "domain/business_calendar.hpp"

#include <lastro/sdk/sample/date_math.hpp>

namespace lastro::series {

namespace sample = sdk::sample;

sdk::Date EasterSunday(int year) {
    const int a = year % 19;
    const int b = year / 100;
    const int c = year % 100;
    const int d = b / 4;
    const int e = b % 4;
    const int f = (b + 8) / 25;
    const int g = (b - f + 1) / 3;
    const int h = (19 * a + b - d - g + 15) % 30;
    const int i = c / 4;
    const int k = c % 4;
    const int l = (32 + 2 * e + 2 * i - h - k) % 7;
    const int m = (a + 11 * h + 22 * l) / 451;
    const int month = (h + l - 7 * m + 114) / 31;
    const int day = (h + l - 7 * m + 114) % 31 + 1;
    return {year, month, day};
}

bool IsNationalHoliday(const sdk::Date& date) {
    const int md = date.month * 100 + date.day;
    switch (md) {
        case 101:
        case 421:
        case 501:
        case 907:
        case 1012:
        case 1102:
        case 1115:
        case 1225:
            return true;
        case 1120:
            return date.year >= 2024;  // Consciência Negra, national since Law 14,759/2023
        default:
            break;
    }
    const std::int64_t offset = sample::DayNumber(date) - sample::DayNumber(EasterSunday(date.year));
    // Carnival Monday and Tuesday, Good Friday, Corpus Christi.
    return offset == -48 || offset == -47 || offset == -2 || offset == 60;
}

bool IsBusinessDay(const sdk::Date& date) {
    const int weekday = sample::Weekday(date);
    return weekday != 0 && weekday != 6 && !IsNationalHoliday(date);
}

std::vector<sdk::Date> BusinessDays(const sdk::Date& first, const sdk::Date& last) {
    std::vector<sdk::Date> days;
    for (std::int64_t n = sample::DayNumber(first), end = sample::DayNumber(last); n <= end; ++n) {
        const sdk::Date day = sample::FromDayNumber(n);
        if (IsBusinessDay(day)) {
            days.push_back(day);
        }
    }
    return days;
}

sdk::Date NextBusinessDay(const sdk::Date& date) {
    sdk::Date day = date;
    while (!IsBusinessDay(day)) {
        day = sample::AddDays(day, 1);
    }
    return day;
}

}  // namespace lastro::series
