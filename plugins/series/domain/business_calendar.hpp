// The business days of Brazil's financial calendar (ANBIMA's national holidays): the days on
// which the Central Bank publishes its daily series (Selic, CDI), the DI accrues and funds file
// their daily reports. Shared by the sample writers, the provisional-day rule and the gap rule.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <vector>

namespace lastro::series {

// Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher).
sdk::Date EasterSunday(int year);

// The national holidays of ANBIMA's calendar: 1 Jan, 21 Apr, 1 May, 7 Sep, 12 Oct, 2 Nov,
// 15 Nov, 20 Nov (from 2024), 25 Dec, Carnival's Monday and Tuesday, Good Friday and Corpus
// Christi. 24 and 31 December are business days (SGS publishes both).
bool IsNationalHoliday(const sdk::Date& date);

// Monday to Friday and not a national holiday.
bool IsBusinessDay(const sdk::Date& date);

// The business days from `first` to `last`, both included, in order.
std::vector<sdk::Date> BusinessDays(const sdk::Date& first, const sdk::Date& last);

// `date` when it is a business day, else the next one.
sdk::Date NextBusinessDay(const sdk::Date& date);

}  // namespace lastro::series
