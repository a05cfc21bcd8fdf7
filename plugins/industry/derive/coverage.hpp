// Completeness of each month (docs/coverage.md): whether its reports are judged complete,
// partial, not yet knowable (inside the filing deadline or CVM's republication window), or a
// baseline (no month before to compare with).
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

namespace lastro::industry {

// A month's reporters against those expected (the month before's, less the registrations
// cancelled before this month started).
struct MonthAttrition {
    std::string month;
    std::optional<std::int64_t> expected;  // null: no month before
    std::int64_t missing = 0;
    std::optional<double> missing_nav;
    std::optional<double> previous_nav;
};

struct Completeness {
    std::string status;  // "complete", "partial", "unknown_completeness" or "baseline"
    std::string reason;
};

// Normal attrition is the median over the (at most) kBaselineMonths judged months before; a month
// is partial when its missing vehicles exceed kPartialFactor times that median plus
// kPartialCountSlack, or its missing net worth (share of the month before's) exceeds
// kPartialFactor times the median share plus kPartialShareSlack.
inline constexpr std::size_t kBaselineMonths = 12;
inline constexpr double kPartialFactor = 3.0;
inline constexpr std::int64_t kPartialCountSlack = 5;
inline constexpr double kPartialShareSlack = 0.01;
// A month M is not yet knowable before the first day of M+3: reports are due on day 15 of M+1
// and CVM republishes recent months (the whole of M+2 is the window).
inline constexpr int kSettledAfterMonths = 3;

// Judges every month of `months` (ascending) as of `now`.
std::vector<Completeness> JudgeCompleteness(const std::vector<MonthAttrition>& months, std::time_t now);

}  // namespace lastro::industry
