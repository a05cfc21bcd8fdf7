// B3's trading days for the sample (the SDK's calendar, <lastro/sdk/brazil_calendar.hpp>).
#pragma once

#include <lastro/sdk/brazil_calendar.hpp>

namespace lastro::stocks {

using sdk::B3TradingDays;
using sdk::IsB3TradingDay;

}  // namespace lastro::stocks
