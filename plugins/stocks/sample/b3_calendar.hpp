// B3's trading days for the sample: weekdays except the national holidays the exchange closes
// on (Carnival Monday and Tuesday, Good Friday, Corpus Christi...) and 24 and 31 December. São
// Paulo's own holidays (25 January, 9 July, 20 November before it became national) have been
// trading days since 2022; 20 November is national from 2024.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <vector>

namespace lastro::stocks {

bool IsB3TradingDay(const sdk::Date& day);
// Every trading day from `first` to `last`, both included.
std::vector<sdk::Date> B3TradingDays(const sdk::Date& first, const sdk::Date& last);

}  // namespace lastro::stocks
