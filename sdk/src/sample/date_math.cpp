#include <lastro/sdk/sample/date_math.hpp>

#include <lastro/sdk/sample/prng.hpp>

namespace lastro::sdk::sample {

// Counts days through 400-year eras (146,097 days each) with years starting in March, so the
// leap day falls at the end of the counted year.
std::int64_t DayNumber(const Date& date) {
    const std::int64_t year = date.year - (date.month <= 2 ? 1 : 0);
    const std::int64_t era = (year >= 0 ? year : year - 399) / 400;
    const std::int64_t year_of_era = year - era * 400;
    const std::int64_t month_from_march = (date.month + 9) % 12;
    const std::int64_t day_of_year = (153 * month_from_march + 2) / 5 + date.day - 1;
    const std::int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;  // 719468 = days from 0000-03-01 to 1970-01-01
}

Date FromDayNumber(std::int64_t days) {
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

Date AddDays(const Date& date, std::int64_t days) {
    return FromDayNumber(DayNumber(date) + days);
}

int Weekday(const Date& date) {
    const std::int64_t shifted = DayNumber(date) + 4;  // 1970-01-01 was a Thursday
    return static_cast<int>(((shifted % 7) + 7) % 7);
}

Date NextWeekday(const Date& date) {
    switch (Weekday(date)) {
        case 6:
            return AddDays(date, 2);
        case 0:
            return AddDays(date, 1);
        default:
            return date;
    }
}

Date LastDayOfMonth(int year, int month) {
    return {year, month, DaysInMonth(year, month)};
}

Date LastWeekdayOfMonth(int year, int month) {
    Date date = LastDayOfMonth(year, month);
    while (Weekday(date) == 0 || Weekday(date) == 6) {
        date = AddDays(date, -1);
    }
    return date;
}

Date RandomDate(Prng& rng, const Date& first, const Date& last) {
    return FromDayNumber(rng.Between(DayNumber(first), DayNumber(last)));
}

Date RecentSkewedDate(Prng& rng, const Date& first, const Date& last) {
    const std::int64_t a = rng.Between(DayNumber(first), DayNumber(last));
    const std::int64_t b = rng.Between(DayNumber(first), DayNumber(last));
    return FromDayNumber(a > b ? a : b);
}

}  // namespace lastro::sdk::sample
