// The sanity filters (docs/quality.md): values no aggregate should carry are set aside, each
// with a quality warning naming the month, the vehicle, the rule and the amount. Nothing is
// dropped silently.
#pragma once

#include "derive/universe.hpp"

#include <boost/json/array.hpp>

#include <map>
#include <optional>
#include <string>

namespace lastro::industry {

// Net worth of each vehicle (by CNPJ) in a neighbouring month; a vehicle absent there is absent.
using NavByCnpj = std::map<std::string, std::optional<double>>;

inline constexpr double kSpikeFactor = 20.0;       // net worth over 20 times both neighbours ...
inline constexpr double kSpikeFloorBrl = 1e9;      // ... and above R$ 1 billion
inline constexpr double kOperationFactor = 3.0;    // an operation over 3 x max(PL, PL before) ...
inline constexpr double kOperationSlackBrl = 1e8;  // ... + R$ 100 million
inline constexpr double kAmountLimitBrl = 1e13;    // beyond any real vehicle: R$ 10 trillion
inline constexpr double kMaxSharePct = 100.0;      // a cedente's share of the receivables

// Whether the report-level rules (amount_out_of_range, negative_nav, nav_spike) set aside a
// report of net worth `nav` whose vehicle had `before` and `after` in the neighbouring months.
bool ReportSetAside(const std::optional<double>& nav, const std::optional<double>& before,
                    const std::optional<double>& after);

// Applies every filter to `universe` (marking what is set aside) and returns the warnings, each
// {"month","rule","cnpj","name","field","value","unit","set_aside","detail"}.
boost::json::array ApplySanityFilters(MonthUniverse& universe, const NavByCnpj& previous,
                                      const NavByCnpj& next);

}  // namespace lastro::industry
