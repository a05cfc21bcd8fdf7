#include "core/sample/date_math.hpp"

#include "core/sample/prng.hpp"

namespace lastro::sample {

// Counts days through 400-year eras (146,097 days each) with years starting in March, so the
// leap day falls at the end of the counted year.
std::int64_t DayNumber(const sdk::Date& date) {
    const std::int64_t year = date.year - (date.month <= 2 ? 1 : 0);
    const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
    const std::int64_t year_of_era = year - era * 400;
    const std::int64_t month_from_march = (date.month + 9) % 12;
    const std::int64_t day_of_year = (153 * month_from_march + 2) / 5 + date.day - 1;
    const std::int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;  // 719468 = days from 0000-03-01 to 1970-01-01
}

sdk::Date FromDayNumber(std::int64_t days) {
    const std::int64_t shifted = days + 719468;
    const std::int64_t era = (shifted >= 0 ? shifted : shifted - 146096) / 146097;
    const std::int64_t day_of_era = shifted - era * 146097;
    const std::int64_t year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const std::int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const std::int64_t month_from_march = (5 * day_of_year + 2) / 153;
    const auto day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
    const auto month = static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
    const auto year = static_cast<int>(year_of_era + era * 400 + (month <= 2 ? 1 : 0));
    return {year, month, day};
}

sdk::Date AddDays(const sdk::Date& date, std::int64_t days) {
    return FromDayNumber(DayNumber(date) + days);
}

int Weekday(const sdk::Date& date) {
    const std::int64_t shifted = DayNumber(date) + 4;  // 1970-01-01 was a Thursday
    return static_cast<int>(((shifted % 7) + 7) % 7);
}

sdk::Date NextWeekday(const sdk::Date& date) {
    switch (Weekday(date)) {
        case 6:
            return AddDays(date, 2);
        case 0:
            return AddDays(date, 1);
        default:
            return date;
    }
}

sdk::Date LastDayOfMonth(int year, int month) {
    return {year, month, sdk::DaysInMonth(year, month)};
}

sdk::Date LastWeekdayOfMonth(int year, int month) {
    sdk::Date date = LastDayOfMonth(year, month);
    while (Weekday(date) == 0 || Weekday(date) == 6) {
        date = AddDays(date, -1);
    }
    return date;
}

sdk::Date RandomDate(Prng& rng, const sdk::Date& first, const sdk::Date& last) {
    return FromDayNumber(rng.Between(DayNumber(first), DayNumber(last)));
}

sdk::Date RecentSkewedDate(Prng& rng, const sdk::Date& first, const sdk::Date& last) {
    const std::int64_t a = rng.Between(DayNumber(first), DayNumber(last));
    const std::int64_t b = rng.Between(DayNumber(first), DayNumber(last));
    return FromDayNumber(a > b ? a : b);
}

}  // namespace lastro::sample
