#include "derive/coverage.hpp"
#include "derive/utc_time.hpp"

#include <lastro/sdk/calendar.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace lastro::industry {
namespace {

template <typename T>
double Median(std::vector<T> values) {
    if (values.empty()) {
        return 0;
    }
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? double(values[n / 2]) : (double(values[n / 2 - 1]) + double(values[n / 2])) / 2;
}

std::string Format(const char* format, double a, double b, double c) {
    char text[256];
    std::snprintf(text, sizeof text, format, a, b, c);
    return text;
}

}  // namespace

std::vector<Completeness> JudgeCompleteness(const std::vector<MonthAttrition>& months, std::time_t now) {
    const std::string today = UtcDate(now);
    std::vector<Completeness> out;
    std::vector<std::int64_t> counts;  // of the months judged so far, in order
    std::vector<double> shares;
    for (const MonthAttrition& m : months) {
        Completeness c;
        const auto parsed = sdk::Month::Parse(m.month);
        sdk::Month settled = parsed.value_or(sdk::Month{9999, 12});
        for (int i = 0; i < kSettledAfterMonths; ++i) {
            settled = settled.Next();
        }
        const double share =
            m.missing_nav && m.previous_nav && *m.previous_nav > 0 ? *m.missing_nav / *m.previous_nav : 0.0;
        if (today < settled.ToString() + "-01") {
            c.status = "unknown_completeness";
            c.reason =
                "inside the filing deadline (day 15 of the next month) or CVM's republication window; "
                "settled from " +
                settled.ToString() + "-01";
        } else if (!m.expected) {
            c.status = "baseline";
            c.reason = "no month before to compare reporters with";
        } else {
            const std::size_t from = counts.size() > kBaselineMonths ? counts.size() - kBaselineMonths : 0;
            const double median_count = Median(
                std::vector<std::int64_t>(counts.begin() + static_cast<std::ptrdiff_t>(from), counts.end()));
            const double median_share =
                Median(std::vector<double>(shares.begin() + static_cast<std::ptrdiff_t>(from), shares.end()));
            const double count_limit = kPartialFactor * median_count + double(kPartialCountSlack);
            const double share_limit = kPartialFactor * median_share + kPartialShareSlack;
            if (double(m.missing) > count_limit) {
                c.status = "partial";
                c.reason = Format(
                    "%.0f expected vehicles did not report, above the limit of %.1f (3 x the median "
                    "attrition %.1f + 5)",
                    double(m.missing), count_limit, median_count);
            } else if (share > share_limit) {
                c.status = "partial";
                c.reason = Format(
                    "the vehicles that did not report held %.4f of the month before's net worth, "
                    "above the limit of %.4f (3 x the median %.4f + 0.01)",
                    share, share_limit, median_share);
            } else {
                c.status = "complete";
                c.reason =
                    Format("%.0f expected vehicles did not report (limit %.1f); their net worth share %.4f",
                           double(m.missing), count_limit, share);
            }
            // Normal attrition is learnt from complete months only: a partial month would raise
            // the bar for the next.
            if (c.status == "complete") {
                counts.push_back(m.missing);
                shares.push_back(share);
            }
        }
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace lastro::industry
