// Brazil's financial calendars, for the plugins and their samples: ANBIMA's business days (the
// days the Central Bank publishes its daily series, the DI accrues and funds file their daily
// reports) and B3's trading days (the same national holidays, and B3 also closes on 24 and 31
// December). São Paulo's own holidays (25 January, 9 July) have been trading days since 2022.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <boost/config.hpp>

#include <vector>

namespace lastro::sdk {

// Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher):
// Carnival, Good Friday and Corpus Christi move with it.
BOOST_SYMBOL_VISIBLE Date EasterSunday(int year);

// The national holidays of ANBIMA's calendar: 1 Jan, 21 Apr, 1 May, 7 Sep, 12 Oct, 2 Nov,
// 15 Nov, 20 Nov (from 2024, Law 14,759/2023), 25 Dec, Carnival's Monday and Tuesday, Good Friday
// and Corpus Christi. 24 and 31 December are business days (SGS publishes both).
BOOST_SYMBOL_VISIBLE bool IsNationalHoliday(const Date& date);

// Monday to Friday and not a national holiday.
BOOST_SYMBOL_VISIBLE bool IsBusinessDay(const Date& date);
// The business days from `first` to `last`, both included, in order.
BOOST_SYMBOL_VISIBLE std::vector<Date> BusinessDays(const Date& first, const Date& last);
// `date` when it is a business day, else the next one.
BOOST_SYMBOL_VISIBLE Date NextBusinessDay(const Date& date);

// A business day on which B3 trades: not 24 or 31 December.
BOOST_SYMBOL_VISIBLE bool IsB3TradingDay(const Date& date);
// B3's trading days from `first` to `last`, both included, in order.
BOOST_SYMBOL_VISIBLE std::vector<Date> B3TradingDays(const Date& first, const Date& last);

}  // namespace lastro::sdk
