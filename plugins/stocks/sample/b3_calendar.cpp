#include "sample/b3_calendar.hpp"

#include <lastro/sdk/sample/date_math.hpp>

namespace lastro::stocks {
namespace {

// Easter Sunday (the anonymous Gregorian algorithm): Carnival, Good Friday and Corpus Christi
// move with it.
sdk::Date Easter(int year) {
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
    return sdk::Date{year, month, day};
}

bool IsHoliday(const sdk::Date& day) {
    const int md = day.month * 100 + day.day;
    switch (md) {
        case 101:   // Confraternização Universal
        case 421:   // Tiradentes
        case 501:   // Dia do Trabalho
        case 907:   // Independência
        case 1012:  // Nossa Senhora Aparecida
        case 1102:  // Finados
        case 1115:  // Proclamação da República
        case 1224:  // B3 closes on Christmas Eve
        case 1225:  // Natal
        case 1231:  // and on New Year's Eve
            return true;
        case 1120:  // Consciência Negra: national since 2024
            return day.year >= 2024;
        default:
            break;
    }
    const sdk::Date easter = Easter(day.year);
    for (const int offset : {-48, -47, -2, 60}) {  // Carnival Monday and Tuesday, Good Friday, Corpus Christi
        if (sdk::sample::AddDays(easter, offset) == day) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool IsB3TradingDay(const sdk::Date& day) {
    const int weekday = sdk::sample::Weekday(day);
    return weekday != 0 && weekday != 6 && !IsHoliday(day);
}

std::vector<sdk::Date> B3TradingDays(const sdk::Date& first, const sdk::Date& last) {
    std::vector<sdk::Date> days;
    for (sdk::Date day = first; day <= last; day = sdk::sample::AddDays(day, 1)) {
        if (IsB3TradingDay(day)) {
            days.push_back(day);
        }
    }
    return days;
}

}  // namespace lastro::stocks
