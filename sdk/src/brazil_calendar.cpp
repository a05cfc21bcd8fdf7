#include <lastro/sdk/brazil_calendar.hpp>
#include <lastro/sdk/sample/date_math.hpp>

#include <cstdint>

namespace lastro::sdk {

Date EasterSunday(int year) {
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

bool IsNationalHoliday(const Date& date) {
    switch (date.month * 100 + date.day) {
        case 101:   // Confraternização Universal
        case 421:   // Tiradentes
        case 501:   // Dia do Trabalho
        case 907:   // Independência
        case 1012:  // Nossa Senhora Aparecida
        case 1102:  // Finados
        case 1115:  // Proclamação da República
        case 1225:  // Natal
            return true;
        case 1120:
            return date.year >= 2024;  // Consciência Negra
        default:
            break;
    }
    const std::int64_t offset = sample::DayNumber(date) - sample::DayNumber(EasterSunday(date.year));
    // Carnival Monday and Tuesday, Good Friday, Corpus Christi.
    return offset == -48 || offset == -47 || offset == -2 || offset == 60;
}

bool IsBusinessDay(const Date& date) {
    const int weekday = sample::Weekday(date);
    return weekday != 0 && weekday != 6 && !IsNationalHoliday(date);
}

std::vector<Date> BusinessDays(const Date& first, const Date& last) {
    std::vector<Date> days;
    for (std::int64_t n = sample::DayNumber(first), end = sample::DayNumber(last); n <= end; ++n) {
        const Date day = sample::FromDayNumber(n);
        if (IsBusinessDay(day)) {
            days.push_back(day);
        }
    }
    return days;
}

Date NextBusinessDay(const Date& date) {
    Date day = date;
    while (!IsBusinessDay(day)) {
        day = sample::AddDays(day, 1);
    }
    return day;
}

bool IsB3TradingDay(const Date& date) {
    const int md = date.month * 100 + date.day;
    return IsBusinessDay(date) && md != 1224 && md != 1231;
}

std::vector<Date> B3TradingDays(const Date& first, const Date& last) {
    std::vector<Date> days;
    for (const Date& day : BusinessDays(first, last)) {
        if (IsB3TradingDay(day)) {
            days.push_back(day);
        }
    }
    return days;
}

}  // namespace lastro::sdk
