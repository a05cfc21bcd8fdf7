// The business days of Brazil's financial calendar (ANBIMA's national holidays): the days on
// which the Central Bank publishes its daily series (Selic, CDI), the DI accrues and funds file
// their daily reports. The SDK keeps the calendar (shared with the stocks plugin's B3 days);
// these names bring it into the series plugin's namespace.
#pragma once

#include <lastro/sdk/brazil_calendar.hpp>

namespace lastro::series {

using sdk::BusinessDays;
using sdk::EasterSunday;
using sdk::IsBusinessDay;
using sdk::IsNationalHoliday;
using sdk::NextBusinessDay;

}  // namespace lastro::series
