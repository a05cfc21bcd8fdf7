// The derived dataset of the fundsclient test plugin: one row per month.
#pragma once

#include <lastro/sdk/odb_optional.hpp>

#include <cstdint>
#include <optional>
#include <string>

#pragma db model version(1, 1)

namespace lastro::fundsclient {

#pragma db object table("fundsclient_monthly_total")
struct MonthlyTotal {
#pragma db id
    std::string month;  // "YYYY-MM"
    std::int64_t reports = 0;
    std::optional<double> nav_total;  // null when no report of the month has a net worth
    std::int64_t nav_missing = 0;
    std::string derived_at;  // RFC 3339 UTC
};

}  // namespace lastro::fundsclient
