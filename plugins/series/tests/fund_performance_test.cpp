// A fund's performance from its daily quotas (domain/daily/performance.hpp, docs/performance.md),
// recomputed independently: the quotas and the CDI rates are decimal texts, read exactly into
// cpp_dec_float_50 and run through simple loops written from the formulas (never through the
// plugin's code), while the plugin reads the same texts as doubles. Window starts, peaks,
// troughs, gaps and reasons are worked out by hand from the calendar of each case.
#include "domain/business_calendar.hpp"
#include "domain/daily/performance.hpp"
#include "src/daily/performance_json.hpp"

#include <lastro/sdk/serving/json_text.hpp>

#include <boost/json/parse.hpp>
#include <boost/multiprecision/cpp_dec_float.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace lastro::series {
namespace {

using Dec = boost::multiprecision::cpp_dec_float_50;

// Returns, CDI returns, excess, volatility and drawdown: fractions, exact to 1e-12.
constexpr double kFraction = 1e-12;
// A ratio of two returns (pct_of_cdi) and Sharpe (a ratio over small excess returns): relative.
constexpr double kRatio = 1e-10;

sdk::Date D(const std::string& text) {
    const std::optional<sdk::Date> day = sdk::Date::Parse(text);
    if (!day) {
        throw std::invalid_argument("bad test date " + text);
    }
    return *day;
}

// A hand-made fund: its published rows and the CDI's SGS 12 rates, as texts.
struct Fund {
    std::vector<std::pair<std::string, std::optional<std::string>>> rows;  // day, quota as published
    std::map<std::string, std::string> rates;                              // SGS 12, % a day, by business day
    std::set<std::string> cdi_missing;  // business days SGS 12 lacks (marked by hand)
    std::set<std::string> unpublished;  // days no fund of the dataset filed
    std::string last_complete;
    bool end_asked = false;
    bool reasons_known = true;  // whether day_published is given
};

Dec FactorOf(const std::string& rate) {
    return Dec(1) + Dec(rate) / 100;
}

PerformanceInput InputOf(const Fund& fund) {
    PerformanceInput input;
    for (const auto& [day, quota] : fund.rows) {
        input.rows.push_back({D(day), quota ? std::optional<double>(std::stod(*quota)) : std::nullopt});
    }
    for (const auto& [day, rate] : fund.rates) {
        input.cdi.push_back({D(day), FactorOf(rate).convert_to<double>()});
    }
    input.last_complete_day = D(fund.last_complete);
    input.end_asked = fund.end_asked;
    if (fund.reasons_known) {
        const std::set<std::string> unpublished = fund.unpublished;
        input.day_published = [unpublished](const sdk::Date& day) {
            return unpublished.count(day.ToString()) == 0;
        };
    }
    return input;
}

void ExpectClose(const std::optional<double>& actual, const Dec& expected, double tolerance,
                 const std::string& what) {
    ASSERT_TRUE(actual.has_value()) << what << ": null, expected " << expected;
    const double want = expected.convert_to<double>();
    EXPECT_NEAR(*actual, want, tolerance * std::max(1.0, std::fabs(want))) << what;
}

void ExpectDay(const std::optional<sdk::Date>& actual, const std::string& expected, const std::string& what) {
    ASSERT_TRUE(actual.has_value()) << what << ": null, expected " << expected;
    EXPECT_EQ(actual->ToString(), expected) << what;
}

// ---- the reference: simple loops on decimals ------------------------------------------------

struct RefPoint {
    std::string day;
    Dec quota;
};

// The usable quotas (published, not null, positive), in order; up to `last` when given.
std::vector<RefPoint> UsablePoints(const Fund& fund, const std::string& last = "9999-12-31") {
    std::vector<RefPoint> points;
    for (const auto& [day, quota] : fund.rows) {
        if (quota && Dec(*quota) > 0 && day <= last) {
            points.push_back({day, Dec(*quota)});
        }
    }
    return points;
}

Dec QuotaOn(const Fund& fund, const std::string& day) {
    for (const auto& [d, quota] : fund.rows) {
        if (d == day) {
            return Dec(*quota);
        }
    }
    throw std::invalid_argument("no quota on " + day);
}

// The CDI's growth over [a, b): its rates' factors multiplied, unknown if SGS lacks a day there.
std::optional<Dec> CdiGrowth(const Fund& fund, const std::string& a, const std::string& b) {
    for (const std::string& day : fund.cdi_missing) {
        if (a <= day && day < b) {
            return std::nullopt;
        }
    }
    Dec growth = 1;
    for (auto it = fund.rates.lower_bound(a); it != fund.rates.end() && it->first < b; ++it) {
        growth *= FactorOf(it->second);
    }
    return growth;
}

Dec SampleSd(const std::vector<Dec>& values) {
    Dec mean = 0;
    for (const Dec& v : values) {
        mean += v;
    }
    mean /= values.size();
    Dec squares = 0;
    for (const Dec& v : values) {
        squares += (v - mean) * (v - mean);
    }
    return sqrt(squares / (values.size() - 1));
}

Dec Mean(const std::vector<Dec>& values) {
    Dec sum = 0;
    for (const Dec& v : values) {
        sum += v;
    }
    return sum / values.size();
}

// A row's CDI figures from its fund return and the CDI's growth (null when unknown).
void ExpectCdiFigures(const std::optional<double>& cdi, const std::optional<double>& excess,
                      const std::optional<double>& pct, const Dec& fund_return,
                      const std::optional<Dec>& growth, const std::string& what) {
    if (!growth) {
        EXPECT_FALSE(cdi.has_value()) << what;
        EXPECT_FALSE(excess.has_value()) << what;
        EXPECT_FALSE(pct.has_value()) << what;
        return;
    }
    const Dec cdi_return = *growth - 1;
    ExpectClose(cdi, cdi_return, kFraction, what + " cdi");
    ExpectClose(excess, fund_return - cdi_return, kFraction, what + " excess");
    if (cdi_return > 0) {
        ExpectClose(pct, fund_return / cdi_return, kRatio, what + " pct");
    } else {
        EXPECT_FALSE(pct.has_value()) << what << " pct with a CDI return of " << cdi_return;
    }
}

// Every daily row against the reference: the return from the previous usable quota, the return
// from the first, the CDI over the same days and what follows from them.
void ExpectDailyRows(const Fund& fund) {
    const std::vector<PerformanceRow> rows = DailyRows(InputOf(fund));
    ASSERT_EQ(rows.size(), fund.rows.size());
    std::optional<RefPoint> first;
    std::optional<RefPoint> previous;
    std::optional<Dec> cdi_since_first;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& [day, quota] = fund.rows[i];
        const PerformanceRow& row = rows[i];
        const std::string what = "row " + day;
        EXPECT_EQ(row.day.ToString(), day);
        EXPECT_EQ(row.provisional, day > fund.last_complete) << what;
        EXPECT_EQ(row.quota.has_value(), quota.has_value()) << what;
        EXPECT_FALSE(row.month_complete.has_value()) << what;
        if (!quota || Dec(*quota) <= 0) {
            for (const auto& figure : {row.period_return, row.accumulated_return, row.cdi_return,
                                       row.cdi_accumulated, row.excess_over_cdi, row.pct_of_cdi,
                                       row.accumulated_excess_over_cdi, row.accumulated_pct_of_cdi}) {
                EXPECT_FALSE(figure.has_value()) << what << ": no usable quota, no figure";
            }
            EXPECT_FALSE(row.return_from.has_value()) << what;
            continue;
        }
        const RefPoint point{day, Dec(*quota)};
        if (!first) {
            first = point;
            cdi_since_first = Dec(1);
        }
        if (previous) {
            ExpectDay(row.return_from, previous->day, what + " return_from");
            const Dec fund_return = point.quota / previous->quota - 1;
            ExpectClose(row.period_return, fund_return, kFraction, what + " return");
            const std::optional<Dec> growth = CdiGrowth(fund, previous->day, day);
            ExpectCdiFigures(row.cdi_return, row.excess_over_cdi, row.pct_of_cdi, fund_return, growth, what);
            cdi_since_first =
                growth && cdi_since_first ? std::optional<Dec>(*cdi_since_first * *growth) : std::nullopt;
        } else {
            EXPECT_FALSE(row.return_from.has_value()) << what;
            EXPECT_FALSE(row.period_return.has_value()) << what;
            EXPECT_FALSE(row.cdi_return.has_value()) << what;
        }
        const Dec accumulated = point.quota / first->quota - 1;
        ExpectClose(row.accumulated_return, accumulated, kFraction, what + " accumulated");
        ExpectCdiFigures(row.cdi_accumulated, row.accumulated_excess_over_cdi, row.accumulated_pct_of_cdi,
                         accumulated, cdi_since_first, what + " accumulated");
        previous = point;
    }
}

// The monthly rows: each month's last usable quota, its return from the previous month's row
// (the first month's from the range's first usable quota).
void ExpectMonthlyRows(const Fund& fund, const std::string& range_end, const std::string& month_end_of_last) {
    const std::vector<PerformanceRow> rows = MonthlyRows(InputOf(fund));
    const std::vector<RefPoint> points = UsablePoints(fund);
    std::vector<RefPoint> month_ends;
    for (std::size_t k = 0; k < points.size(); ++k) {
        if (k + 1 == points.size() || points[k + 1].day.substr(0, 7) != points[k].day.substr(0, 7)) {
            month_ends.push_back(points[k]);
        }
    }
    ASSERT_EQ(rows.size(), month_ends.size());
    for (std::size_t m = 0; m < rows.size(); ++m) {
        const PerformanceRow& row = rows[m];
        const RefPoint& point = month_ends[m];
        const std::string what = "month row " + point.day;
        EXPECT_EQ(row.day.ToString(), point.day);
        EXPECT_EQ(row.provisional, point.day > fund.last_complete) << what;
        const RefPoint& base = m == 0 ? points.front() : month_ends[m - 1];
        if (base.day == point.day) {
            EXPECT_FALSE(row.period_return.has_value()) << what;
        } else {
            ExpectDay(row.return_from, base.day, what + " return_from");
            const Dec fund_return = point.quota / base.quota - 1;
            ExpectClose(row.period_return, fund_return, kFraction, what + " return");
            ExpectCdiFigures(row.cdi_return, row.excess_over_cdi, row.pct_of_cdi, fund_return,
                             CdiGrowth(fund, base.day, point.day), what);
        }
        const Dec accumulated = point.quota / points.front().quota - 1;
        ExpectClose(row.accumulated_return, accumulated, kFraction, what + " accumulated");
        ExpectCdiFigures(row.cdi_accumulated, row.accumulated_excess_over_cdi, row.accumulated_pct_of_cdi,
                         accumulated, CdiGrowth(fund, points.front().day, point.day), what + " accumulated");
        ASSERT_TRUE(row.month_complete.has_value()) << what;
        // Complete when the range reaches the month's last business day (given for the last month).
        const bool last_month = m + 1 == rows.size();
        EXPECT_EQ(*row.month_complete, !last_month || range_end >= month_end_of_last) << what;
    }
}

// A window's return from `from` to `to` (the quotas named by hand) with its observations.
void ExpectReturn(const Figure& figure, const Fund& fund, const std::string& anchor, const std::string& from,
                  const std::string& to) {
    const std::string what = figure.window.covers + " from " + from;
    EXPECT_FALSE(figure.window.unavailable_reason.has_value()) << what << ": " << *figure.window.detail;
    ExpectClose(figure.value, QuotaOn(fund, to) / QuotaOn(fund, from) - 1, kFraction, what);
    ExpectDay(figure.window.start_anchor, anchor, what + " anchor");
    ExpectDay(figure.window.from, from, what + " from");
    ExpectDay(figure.window.to, to, what + " to");
    std::size_t returns = 0;
    for (const RefPoint& point : UsablePoints(fund)) {
        returns += point.day > from && point.day <= to;
    }
    EXPECT_EQ(figure.window.observations, returns) << what;
    EXPECT_EQ(figure.window.includes_provisional, to > fund.last_complete) << what;
}

void ExpectUnavailable(const WindowContext& window, const std::string& reason, const std::string& covers) {
    EXPECT_EQ(window.covers, covers);
    ASSERT_TRUE(window.unavailable_reason.has_value())
        << covers << " should be unavailable (" << reason << ")";
    EXPECT_EQ(*window.unavailable_reason, reason) << covers << ": " << window.detail.value_or("");
    EXPECT_TRUE(window.detail.has_value() && !window.detail->empty()) << covers;
}

void ExpectUnavailable(const Figure& figure, const std::string& reason, const std::string& covers) {
    EXPECT_FALSE(figure.value.has_value()) << covers;
    ExpectUnavailable(figure.window, reason, covers);
}

// Volatility and Sharpe over the usable quotas up to `end`, from the decimals.
void ExpectRisk(const PerformanceSummary& summary, const Fund& fund, const std::string& end) {
    const std::vector<RefPoint> points = UsablePoints(fund, end);
    std::vector<Dec> returns;
    std::vector<Dec> excess;
    for (std::size_t k = 1; k < points.size(); ++k) {
        returns.push_back(points[k].quota / points[k - 1].quota - 1);
        excess.push_back(returns.back() - (*CdiGrowth(fund, points[k - 1].day, points[k].day) - 1));
    }
    ExpectClose(summary.volatility_annualized.value, SampleSd(returns) * sqrt(Dec(252)), kFraction,
                "volatility");
    EXPECT_EQ(summary.volatility_annualized.window.observations, returns.size());
    ExpectDay(summary.volatility_annualized.window.from, points.front().day, "volatility from");
    ExpectDay(summary.volatility_annualized.window.to, end, "volatility to");
    // The returns are exact to about 1e-15 (doubles read from 8-decimal quotas); Sharpe divides by
    // the spread of the excess returns, so its tolerance grows as that spread shrinks.
    const Dec excess_sd = SampleSd(excess);
    ExpectClose(summary.sharpe_cdi.value, Mean(excess) / excess_sd * sqrt(Dec(252)),
                kRatio + 1e-14 / excess_sd.convert_to<double>(), "sharpe");
    EXPECT_EQ(summary.sharpe_cdi.window.observations, excess.size());
}

// ---- the cases ------------------------------------------------------------------------------

// "0.043739"-style texts: a daily rate of `units` millionths of a percent.
std::string RateText(long units) {
    char text[32];
    std::snprintf(text, sizeof text, "%s0.%06ld", units < 0 ? "-" : "", std::labs(units));
    return text;
}

// A positive decimal rounded half up to 8 decimals, as published.
std::string Fixed8(const Dec& value) {
    const long long units =
        static_cast<long long>(floor(value * 100000000 + Dec("0.5")).convert_to<double>());
    char text[48];
    std::snprintf(text, sizeof text, "%lld.%08lld", units / 100000000, units % 100000000);
    return text;
}

// A DI fund published every business day from 2021-01-04 to 2025-09-26: each day it earns the
// previous day's CDI and a spread, +1e-5 a day in odd months and -1.2e-5 in even ones (so odd
// months beat the CDI and even ones do not), rounded to 8 decimals. The CDI varies day to day, so
// a CDI taken one day off shows. Days after 2025-09-22 are still being filed.
Fund SmoothDiFund() {
    Fund fund;
    fund.last_complete = "2025-09-22";
    const std::map<int, long> base_rate = {
        {2021, 16137}, {2022, 43739}, {2023, 50788}, {2024, 40168}, {2025, 54266}};
    const std::vector<sdk::Date> days = BusinessDays(D("2021-01-04"), D("2025-09-26"));
    Dec quota("2.45678901");
    for (std::size_t k = 0; k < days.size(); ++k) {
        const std::string day = days[k].ToString();
        if (k > 0) {
            const Dec spread = days[k].month % 2 == 1 ? Dec("0.00001") : Dec("-0.000012");
            quota = Dec(Fixed8(quota * FactorOf(fund.rates.at(days[k - 1].ToString())) * (1 + spread)));
        }
        fund.rows.push_back({day, Fixed8(quota)});
        fund.rates[day] = RateText(base_rate.at(days[k].year) + static_cast<long>(k % 5) * 7);
    }
    return fund;
}

// June 2025's business days (Corpus Christi, the 19th, is a holiday) with their CDI rates.
const std::vector<std::string> kJune = {"2025-06-02", "2025-06-03", "2025-06-04", "2025-06-05", "2025-06-06",
                                        "2025-06-09", "2025-06-10", "2025-06-11", "2025-06-12", "2025-06-13",
                                        "2025-06-16", "2025-06-17", "2025-06-18", "2025-06-20", "2025-06-23",
                                        "2025-06-24", "2025-06-25", "2025-06-26", "2025-06-27", "2025-06-30"};

Fund JuneFund(const std::vector<std::pair<std::string, std::optional<std::string>>>& rows) {
    Fund fund;
    fund.rows = rows;
    for (std::size_t i = 0; i < kJune.size(); ++i) {
        fund.rates[kJune[i]] = RateText(54266 + static_cast<long>(i) * 13);
    }
    fund.last_complete = "2025-06-30";
    return fund;
}

Fund Without(Fund fund, const std::string& first, const std::string& last) {
    std::erase_if(fund.rows, [&](const auto& row) { return row.first >= first && row.first <= last; });
    return fund;
}

// ---- tests ----------------------------------------------------------------------------------

TEST(FundPerformance, SmoothDiFundRowsFollowTheFormulas) {
    const Fund fund = SmoothDiFund();
    ExpectDailyRows(fund);
    // September 2025 ends on Tuesday the 30th; the range stops on Friday the 26th.
    ExpectMonthlyRows(fund, "2025-09-26", "2025-09-30");
    const std::vector<PerformanceRow> monthly = MonthlyRows(InputOf(fund));
    ASSERT_EQ(monthly.size(), 57u);  // 2021-01 .. 2025-09
    ExpectDay(monthly.front().return_from, "2021-01-04", "the first month starts at the first quota");
    EXPECT_EQ(monthly[1].day.ToString(), "2021-02-26");
    ExpectDay(monthly[1].return_from, "2021-01-29", "February from January's last quota");
    EXPECT_TRUE(monthly.back().provisional);
    EXPECT_FALSE(*monthly.back().month_complete);
    EXPECT_TRUE(*monthly[monthly.size() - 2].month_complete);
}

TEST(FundPerformance, SmoothDiFundSummaryEndsAtTheLastCompleteDay) {
    const Fund fund = SmoothDiFund();
    const PerformanceSummary summary = Summarize(InputOf(fund));
    ExpectDay(summary.end, "2025-09-22", "end");
    // Worked by hand: the previous month ends on Sunday 2025-08-31 (last quota Friday the 29th);
    // 2024-12-31 is a business day; 2024-09-22 is a Sunday (Friday the 20th); 2023-09-22 and
    // 2022-09-22 are business days.
    ExpectReturn(summary.month_to_date, fund, "2025-08-31", "2025-08-29", "2025-09-22");
    ExpectReturn(summary.year_to_date, fund, "2024-12-31", "2024-12-31", "2025-09-22");
    ExpectReturn(summary.months_12, fund, "2024-09-22", "2024-09-20", "2025-09-22");
    ExpectReturn(summary.months_24, fund, "2023-09-22", "2023-09-22", "2025-09-22");
    ExpectReturn(summary.months_36, fund, "2022-09-22", "2022-09-22", "2025-09-22");
    ExpectClose(summary.since_first_quota.value,
                QuotaOn(fund, "2025-09-22") / QuotaOn(fund, "2021-01-04") - 1, kFraction,
                "since first quota");
    ExpectDay(summary.since_first_quota.window.from, "2021-01-04", "since first from");
    EXPECT_FALSE(summary.since_first_quota.window.includes_provisional);
    ExpectRisk(summary, fund, "2025-09-22");

    // The quota only rises: no drawdown, no dates.
    ASSERT_TRUE(summary.max_drawdown.value.has_value());
    EXPECT_EQ(*summary.max_drawdown.value, 0.0);
    EXPECT_FALSE(summary.max_drawdown.peak || summary.max_drawdown.trough || summary.max_drawdown.recovery);

    // Complete months 2021-02 .. 2025-08 (January 2021 has no quota before it, September 2025
    // does not reach its last business day): each judged from the decimals.
    const std::vector<RefPoint> points = UsablePoints(fund, "2025-09-22");
    std::size_t above = 0;
    std::size_t of = 0;
    std::size_t odd = 0;
    for (std::size_t k = 1; k < points.size(); ++k) {
        const std::string month = points[k].day.substr(0, 7);
        if (month == points[k - 1].day.substr(0, 7) || month == "2021-01" || month == "2025-09") {
            continue;
        }
        std::size_t last = k;
        while (last + 1 < points.size() && points[last + 1].day.substr(0, 7) == month) {
            ++last;
        }
        const Dec fund_return = points[last].quota / points[k - 1].quota - 1;
        const Dec cdi_return = *CdiGrowth(fund, points[k - 1].day, points[last].day) - 1;
        ++of;
        above += fund_return > cdi_return;
        odd += std::stoi(month.substr(5)) % 2 == 1;
    }
    EXPECT_EQ(of, 55u);
    EXPECT_EQ(above, odd) << "the case is built so that odd months beat the CDI";
    const MonthsAboveCdi& months = summary.months_above_cdi;
    ASSERT_TRUE(months.above.has_value()) << months.window.detail.value_or("");
    EXPECT_EQ(*months.above, above);
    EXPECT_EQ(months.of, of);
    EXPECT_TRUE(months.without_cdi.empty());
    ExpectDay(months.window.from, "2021-01-29", "months from");
    ExpectDay(months.window.to, "2025-08-29", "months to");
    EXPECT_TRUE(summary.gaps.empty());
    EXPECT_TRUE(summary.unusable_quotas.empty());
}

TEST(FundPerformance, TheRangesEndAskedExplicitlyIncludesProvisionalDays) {
    Fund fund = SmoothDiFund();
    fund.end_asked = true;
    const PerformanceSummary summary = Summarize(InputOf(fund));
    ExpectDay(summary.end, "2025-09-26", "end");
    ExpectReturn(summary.month_to_date, fund, "2025-08-31", "2025-08-29", "2025-09-26");
    ExpectReturn(summary.months_12, fund, "2024-09-26", "2024-09-26", "2025-09-26");
    ExpectReturn(summary.months_36, fund, "2022-09-26", "2022-09-26", "2025-09-26");
    EXPECT_TRUE(summary.since_first_quota.window.includes_provisional);
    ExpectRisk(summary, fund, "2025-09-26");
    // The rows are flagged either way.
    const std::vector<PerformanceRow> rows = DailyRows(InputOf(fund));
    EXPECT_FALSE(rows[rows.size() - 5].provisional);  // 2025-09-22
    EXPECT_TRUE(rows[rows.size() - 4].provisional);   // 2025-09-23
}

TEST(FundPerformance, MonthWindowsClampToTheMonthsEnd) {
    Fund fund = SmoothDiFund();
    fund.last_complete = "2024-02-29";
    const PerformanceSummary summary = Summarize(InputOf(fund));
    ExpectDay(summary.end, "2024-02-29", "end");
    // 2023-02-29 does not exist: 2023-02-28 (a Tuesday). 2022-02-28 is Carnival Monday: the
    // quota of Friday the 25th. 2021-02-28 is a Sunday: Friday the 26th. 2023-12-31, a Sunday.
    ExpectReturn(summary.months_12, fund, "2023-02-28", "2023-02-28", "2024-02-29");
    ExpectReturn(summary.months_24, fund, "2022-02-28", "2022-02-25", "2024-02-29");
    ExpectReturn(summary.months_36, fund, "2021-02-28", "2021-02-26", "2024-02-29");
    ExpectReturn(summary.month_to_date, fund, "2024-01-31", "2024-01-31", "2024-02-29");
    ExpectReturn(summary.year_to_date, fund, "2023-12-31", "2023-12-29", "2024-02-29");
}

TEST(FundPerformance, ARangeStartingLateLeavesLongerWindowsUnavailable) {
    const Fund fund = Without(SmoothDiFund(), "2021-01-01", "2022-12-31");
    const PerformanceSummary summary = Summarize(InputOf(fund));
    ExpectUnavailable(summary.months_36, "range_starts_after_window_start", "months_36");
    ExpectDay(summary.months_36.window.start_anchor, "2022-09-22", "anchor");
    EXPECT_FALSE(summary.months_36.window.from.has_value());
    ExpectReturn(summary.months_24, fund, "2023-09-22", "2023-09-22", "2025-09-22");

    const Fund late = Without(SmoothDiFund(), "2021-01-01", "2025-09-01");  // from 2025-09-02
    const PerformanceSummary short_range = Summarize(InputOf(late));
    ExpectUnavailable(short_range.month_to_date, "range_starts_after_window_start", "month_to_date");
    ExpectUnavailable(short_range.year_to_date, "range_starts_after_window_start", "year_to_date");
    ExpectUnavailable(short_range.months_12, "range_starts_after_window_start", "months_12");
    ExpectDay(short_range.since_first_quota.window.from, "2025-09-02", "since first");
    ExpectClose(short_range.since_first_quota.value,
                QuotaOn(late, "2025-09-22") / QuotaOn(late, "2025-09-02") - 1, kFraction, "since first");
    ExpectUnavailable(short_range.months_above_cdi.window, "no_complete_month", "complete_months");
    EXPECT_FALSE(short_range.months_above_cdi.above.has_value());
    ExpectRisk(short_range, late, "2025-09-22");
}

TEST(FundPerformance, AYearWindowNeedsAQuotaWithinSevenDaysOfItsStart) {
    Fund fund = SmoothDiFund();
    fund.end_asked = true;  // ends 2025-09-26: the 12-month window starts on Thursday 2024-09-26
    // No quota from the 20th to the 26th: the 19th is 7 calendar days before, still accepted.
    const Fund seven = Without(fund, "2024-09-20", "2024-09-26");
    ExpectReturn(Summarize(InputOf(seven)).months_12, seven, "2024-09-26", "2024-09-19", "2025-09-26");
    // Also without the 19th: the 18th is 8 days before.
    const Fund eight = Without(fund, "2024-09-19", "2024-09-26");
    const PerformanceSummary summary = Summarize(InputOf(eight));
    ExpectUnavailable(summary.months_12, "no_quota_near_window_start", "months_12");
    EXPECT_NE(summary.months_12.window.detail->find("2024-09-18"), std::string::npos)
        << *summary.months_12.window.detail;
    // The gap is listed: Friday 19th to Thursday 26th, six business days, the fund did not file.
    ASSERT_EQ(summary.gaps.size(), 1u);
    EXPECT_EQ(summary.gaps[0].after.ToString(), "2024-09-18");
    EXPECT_EQ(summary.gaps[0].before.ToString(), "2024-09-27");
    EXPECT_EQ(summary.gaps[0].missing.size(), 6u);
    EXPECT_EQ(summary.gaps[0].reason, "not_filed");
    // The return across the gap is one observation of the volatility.
    ExpectRisk(summary, eight, "2025-09-26");
}

TEST(FundPerformance, VolatileFundDrawdownAndRecovery) {
    const Fund fund = JuneFund({{"2025-06-02", "1.00000000"},
                                {"2025-06-03", "1.02000000"},
                                {"2025-06-04", "1.05000000"},
                                {"2025-06-05", "1.05000000"},  // the same peak again: the fall starts here
                                {"2025-06-06", "1.01000000"},
                                {"2025-06-09", "0.95000000"},
                                {"2025-06-10", "0.90000000"},  // trough
                                {"2025-06-11", "0.97000000"},
                                {"2025-06-12", "1.05000000"},  // back at the peak: recovered
                                {"2025-06-13", "1.08000000"}});
    ExpectDailyRows(fund);
    const PerformanceSummary summary = Summarize(InputOf(fund));
    const Drawdown& drawdown = summary.max_drawdown;
    ExpectClose(drawdown.value, Dec("0.90") / Dec("1.05") - 1, kFraction, "drawdown");  // -1/7
    EXPECT_NEAR(*drawdown.value, -1.0 / 7.0, 1e-15);
    ExpectDay(drawdown.peak, "2025-06-05", "peak");
    ExpectDay(drawdown.trough, "2025-06-10", "trough");
    ExpectDay(drawdown.recovery, "2025-06-12", "recovery");
    EXPECT_EQ(drawdown.window.observations, 9u);
    ExpectClose(summary.since_first_quota.value, Dec("0.08"), kFraction, "since first");
    ExpectRisk(summary, fund, "2025-06-13");
    // June has no quota before it and the range stops before its end.
    ExpectUnavailable(summary.month_to_date, "range_starts_after_window_start", "month_to_date");
    ExpectDay(summary.month_to_date.window.start_anchor, "2025-05-31", "anchor");
    ExpectUnavailable(summary.months_above_cdi.window, "no_complete_month", "complete_months");
}

TEST(FundPerformance, DrawdownNeverRecovered) {
    const Fund fund = JuneFund({{"2025-06-02", "1.00000000"},
                                {"2025-06-03", "0.98000000"},  // a small fall, recovered the next day
                                {"2025-06-04", "1.10000000"},
                                {"2025-06-05", "1.00000000"},
                                {"2025-06-06", "0.80000000"},
                                {"2025-06-09", "0.85000000"},
                                {"2025-06-10", "0.90000000"}});
    const Drawdown drawdown = Summarize(InputOf(fund)).max_drawdown;
    ExpectClose(drawdown.value, Dec("0.80") / Dec("1.10") - 1, kFraction, "drawdown");  // -3/11
    ExpectDay(drawdown.peak, "2025-06-04", "peak");
    ExpectDay(drawdown.trough, "2025-06-06", "trough");
    EXPECT_FALSE(drawdown.recovery.has_value()) << "never back at 1.10";
}

TEST(FundPerformance, AReturnSpansAGapAndCountsOnce) {
    Fund fund = JuneFund({{"2025-06-02", "1.00000000"},
                          {"2025-06-03", "1.00050000"},
                          // 06-04: other funds filed, this one did not
                          {"2025-06-05", "1.00160000"},
                          // 06-06: no fund filed at all
                          {"2025-06-09", "1.00200000"},
                          {"2025-06-10", "1.00190000"},
                          {"2025-06-11", "1.00300000"},
                          {"2025-06-12", "1.00330000"},
                          {"2025-06-13", "1.00310000"},
                          {"2025-06-16", "1.00420000"},
                          {"2025-06-17", "1.00470000"},
                          {"2025-06-18", "1.00500000"},
                          // 06-19: Corpus Christi, not a business day: no gap
                          {"2025-06-20", "1.00560000"},
                          {"2025-06-23", "1.00600000"},
                          // 06-24 not filed, 06-25 no fund filed
                          {"2025-06-26", "1.00710000"}});
    fund.unpublished = {"2025-06-06", "2025-06-25"};
    ExpectDailyRows(fund);
    const std::vector<PerformanceRow> rows = DailyRows(InputOf(fund));
    // The 5th's return is from the 3rd, against the CDI of the 3rd and the 4th.
    ExpectDay(rows[2].return_from, "2025-06-03", "return_from");
    ExpectClose(rows[2].cdi_return,
                FactorOf(fund.rates.at("2025-06-03")) * FactorOf(fund.rates.at("2025-06-04")) - 1, kFraction,
                "cdi over the gap");
    // The 20th's return is from the 18th, against the 18th's CDI only (the 19th is a holiday).
    ExpectClose(rows[11].cdi_return, FactorOf(fund.rates.at("2025-06-18")) - 1, kFraction,
                "cdi over a holiday");

    const PerformanceSummary summary = Summarize(InputOf(fund));
    ASSERT_EQ(summary.gaps.size(), 3u);
    EXPECT_EQ(summary.gaps[0].after.ToString(), "2025-06-03");
    EXPECT_EQ(summary.gaps[0].before.ToString(), "2025-06-05");
    ASSERT_EQ(summary.gaps[0].missing.size(), 1u);
    EXPECT_EQ(summary.gaps[0].missing[0].day.ToString(), "2025-06-04");
    EXPECT_EQ(summary.gaps[0].reason, "not_filed");
    EXPECT_EQ(summary.gaps[1].after.ToString(), "2025-06-05");
    EXPECT_EQ(summary.gaps[1].reason, "not_published");
    EXPECT_EQ(summary.gaps[2].after.ToString(), "2025-06-23");
    EXPECT_EQ(summary.gaps[2].before.ToString(), "2025-06-26");
    ASSERT_EQ(summary.gaps[2].missing.size(), 2u);
    EXPECT_EQ(summary.gaps[2].missing[0].reason, "not_filed");
    EXPECT_EQ(summary.gaps[2].missing[1].reason, "not_published");
    EXPECT_EQ(summary.gaps[2].reason, "mixed");
    // 14 quotas, 13 returns: each return across a gap counts once.
    EXPECT_EQ(summary.volatility_annualized.window.observations, 13u);
    ExpectRisk(summary, fund, "2025-06-26");

    // Without the caller's list of published days, only "no_quota" could be known.
    fund.reasons_known = false;
    const PerformanceSummary unknown = Summarize(InputOf(fund));
    ASSERT_EQ(unknown.gaps.size(), 3u);
    EXPECT_FALSE(unknown.gaps[0].reason.has_value());
    EXPECT_FALSE(unknown.gaps[0].missing[0].reason.has_value());
}

TEST(FundPerformance, NullAndNonPositiveQuotasAreNotUsable) {
    const Fund fund = JuneFund({{"2025-06-02", std::nullopt},  // before the first usable quota
                                {"2025-06-03", "1.00000000"},
                                {"2025-06-04", std::nullopt},
                                {"2025-06-05", "1.00160000"},
                                {"2025-06-06", "0.00000000"},
                                {"2025-06-09", "1.00200000"},
                                {"2025-06-10", "-1.00000000"}});
    ExpectDailyRows(fund);
    const std::vector<PerformanceRow> rows = DailyRows(InputOf(fund));
    ExpectClose(rows[1].accumulated_return, Dec(0), kFraction, "the first usable quota is the base");
    ExpectDay(rows[3].return_from, "2025-06-03", "over the null");
    ExpectDay(rows[5].return_from, "2025-06-05", "over the zero");

    const PerformanceSummary summary = Summarize(InputOf(fund));
    ASSERT_EQ(summary.unusable_quotas.size(), 4u);
    EXPECT_EQ(summary.unusable_quotas[0].day.ToString(), "2025-06-02");
    EXPECT_EQ(summary.unusable_quotas[0].reason, "null");
    EXPECT_FALSE(summary.unusable_quotas[0].quota.has_value());
    EXPECT_EQ(summary.unusable_quotas[2].day.ToString(), "2025-06-06");
    EXPECT_EQ(summary.unusable_quotas[2].reason, "not_positive");
    EXPECT_EQ(summary.unusable_quotas[2].quota, 0.0);
    EXPECT_EQ(summary.unusable_quotas[3].reason, "not_positive");
    ASSERT_EQ(summary.gaps.size(), 2u);  // the leading and trailing rows are not between two quotas
    EXPECT_EQ(summary.gaps[0].missing[0].day.ToString(), "2025-06-04");
    EXPECT_EQ(summary.gaps[0].reason, "no_quota");
    EXPECT_EQ(summary.gaps[1].missing[0].day.ToString(), "2025-06-06");
    EXPECT_EQ(summary.gaps[1].reason, "no_quota");
    ExpectDay(summary.end, "2025-06-09", "end at the last usable quota");
    EXPECT_EQ(summary.volatility_annualized.window.observations, 2u);
    ExpectRisk(summary, fund, "2025-06-09");
}

TEST(FundPerformance, AMissingCdiDayMakesTheCdiUnknownWhereItIsNeeded) {
    Fund fund = JuneFund({{"2025-06-02", "1.00000000"},
                          {"2025-06-03", "1.00060000"},
                          {"2025-06-04", "1.00100000"},
                          {"2025-06-05", "1.00170000"},
                          {"2025-06-06", "1.00200000"},
                          {"2025-06-09", "1.00250000"}});
    fund.rates.erase("2025-06-04");
    fund.cdi_missing = {"2025-06-04"};
    ExpectDailyRows(fund);
    const std::vector<PerformanceRow> rows = DailyRows(InputOf(fund));
    EXPECT_TRUE(rows[2].cdi_return.has_value()) << "the 4th's return accrues the 3rd's DI";
    EXPECT_TRUE(rows[2].cdi_accumulated.has_value());
    EXPECT_FALSE(rows[3].cdi_return.has_value()) << "the 5th's return needs the 4th's DI";
    EXPECT_FALSE(rows[3].pct_of_cdi.has_value());
    EXPECT_TRUE(rows[4].cdi_return.has_value());
    EXPECT_FALSE(rows[4].cdi_accumulated.has_value()) << "accumulated through the missing day";
    EXPECT_FALSE(rows[5].accumulated_excess_over_cdi.has_value());

    const PerformanceSummary summary = Summarize(InputOf(fund));
    ExpectUnavailable(summary.sharpe_cdi, "missing_cdi_day", "since_first_quota");
    EXPECT_NE(summary.sharpe_cdi.window.detail->find("2025-06-04"), std::string::npos);
    EXPECT_TRUE(summary.volatility_annualized.value.has_value()) << "volatility needs no CDI";

    // Over months: March 2024 cannot be judged, the others still are.
    Fund smooth = SmoothDiFund();
    smooth.rates.erase("2024-03-13");
    smooth.cdi_missing = {"2024-03-13"};
    const PerformanceSummary months = Summarize(InputOf(smooth));
    ASSERT_EQ(months.months_above_cdi.without_cdi.size(), 1u);
    EXPECT_EQ(months.months_above_cdi.without_cdi[0].ToString(), "2024-03");
    EXPECT_EQ(months.months_above_cdi.of, 54u);
    EXPECT_EQ(months.months_above_cdi.above, 26u);  // the 27 odd months of 2021-02..2025-08 but March 2024
    ExpectUnavailable(months.sharpe_cdi, "missing_cdi_day", "since_first_quota");
    ExpectDailyRows(smooth);
}

TEST(FundPerformance, PercentOfCdiIsNullWhenTheCdiIsNotPositive) {
    Fund fund = JuneFund({{"2025-06-02", "1.00000000"},
                          {"2025-06-03", "1.00010000"},
                          {"2025-06-04", "1.00020000"},
                          {"2025-06-05", "0.99990000"},
                          {"2025-06-06", "1.00000000"}});
    fund.rates["2025-06-02"] = "-0.010000";
    fund.rates["2025-06-03"] = "0.000000";
    fund.rates["2025-06-04"] = "0.010000";
    fund.rates["2025-06-05"] = "-0.020000";
    ExpectDailyRows(fund);
    const std::vector<PerformanceRow> rows = DailyRows(InputOf(fund));
    EXPECT_FALSE(rows[1].pct_of_cdi.has_value()) << "negative CDI";
    ExpectClose(rows[1].excess_over_cdi, Dec("0.0001") + Dec("0.0001"), kFraction, "excess still served");
    EXPECT_FALSE(rows[2].pct_of_cdi.has_value()) << "zero CDI";
    ExpectClose(rows[3].pct_of_cdi, (Dec("0.9999") / Dec("1.0002") - 1) / Dec("0.0001"), kRatio,
                "a negative fund return against a positive CDI");
    EXPECT_LT(*rows[3].pct_of_cdi, 0);
    EXPECT_FALSE(rows[4].pct_of_cdi.has_value());
    EXPECT_FALSE(rows[4].accumulated_pct_of_cdi.has_value()) << "the CDI accumulated is negative";
    ExpectClose(rows[4].cdi_accumulated, Dec("0.9999") * Dec("1.0001") * Dec("0.9998") - 1, kFraction, "cdi");
}

TEST(FundPerformance, TooFewReturns) {
    const Fund one = JuneFund({{"2025-06-02", "1.00000000"}});
    const PerformanceSummary single = Summarize(InputOf(one));
    ExpectDay(single.end, "2025-06-02", "end");
    ExpectUnavailable(single.since_first_quota, "too_few_returns", "since_first_quota");
    ExpectUnavailable(single.volatility_annualized, "too_few_returns", "since_first_quota");
    ExpectUnavailable(single.sharpe_cdi, "too_few_returns", "since_first_quota");
    EXPECT_FALSE(single.max_drawdown.value.has_value());
    ExpectUnavailable(single.max_drawdown.window, "too_few_returns", "since_first_quota");
    EXPECT_EQ(single.volatility_annualized.window.observations, 0u);

    // One return: a return and a drawdown, not a standard deviation (n - 1 = 0).
    const Fund two = JuneFund({{"2025-06-02", "1.00000000"}, {"2025-06-03", "0.99000000"}});
    const PerformanceSummary pair = Summarize(InputOf(two));
    ExpectClose(pair.since_first_quota.value, Dec("-0.01"), kFraction, "one return");
    ExpectClose(pair.max_drawdown.value, Dec("-0.01"), kFraction, "one fall");
    ExpectUnavailable(pair.volatility_annualized, "too_few_returns", "since_first_quota");
    EXPECT_EQ(pair.volatility_annualized.window.observations, 1u);
    ExpectUnavailable(pair.sharpe_cdi, "too_few_returns", "since_first_quota");

    // No usable quota at all, or none complete yet.
    const PerformanceSummary none = Summarize(InputOf(JuneFund({{"2025-06-02", std::nullopt}})));
    EXPECT_FALSE(none.end.has_value());
    ExpectUnavailable(none.month_to_date, "no_usable_quota", "month_to_date");
    ExpectUnavailable(none.since_first_quota, "no_usable_quota", "since_first_quota");
    ExpectUnavailable(none.months_above_cdi.window, "no_usable_quota", "complete_months");
    Fund early = JuneFund({{"2025-06-02", "1.00000000"}, {"2025-06-03", "1.00100000"}});
    early.last_complete = "2025-05-30";
    ExpectUnavailable(Summarize(InputOf(early)).since_first_quota, "no_usable_quota", "since_first_quota");
    EXPECT_TRUE(DailyRows(InputOf(early))[1].provisional);
    early.end_asked = true;
    EXPECT_TRUE(Summarize(InputOf(early)).since_first_quota.value.has_value());
}

TEST(FundPerformance, RowsMustBeInDateOrder) {
    Fund fund = JuneFund({{"2025-06-03", "1.00000000"}, {"2025-06-02", "1.00100000"}});
    EXPECT_THROW(Summarize(InputOf(fund)), std::invalid_argument);
    fund.rows = {{"2025-06-02", "1.00000000"}, {"2025-06-02", "1.00100000"}};
    EXPECT_THROW(DailyRows(InputOf(fund)), std::invalid_argument);
}

// A row's figures as the handler writes them, in an object of their own.
boost::json::value RowJson(const PerformanceRow& row) {
    sdk::JsonText json;
    json.BeginObject();
    WritePerformanceFigures(json, row);
    json.EndObject();
    return boost::json::parse(json.Take());
}

TEST(FundPerformance, JsonKeepsNullsAndExactNumbers) {
    const Fund fund = JuneFund({{"2025-06-02", "1.00000000"},
                                {"2025-06-03", "1.02000000"},
                                {"2025-06-04", std::nullopt},
                                {"2025-06-05", "1.05000000"},
                                {"2025-06-06", "0.90000000"},
                                {"2025-06-09", "1.08000000"}});
    const PerformanceSummary summary = Summarize(InputOf(fund));
    const boost::json::value json = boost::json::parse(sdk::WriteJson(PerformanceSummaryJson(summary)));
    EXPECT_TRUE(json.at("returns").at("month_to_date").is_null());
    const boost::json::value& mtd = json.at("window_context").at("month_to_date");
    EXPECT_EQ(mtd.at("unavailable_reason").as_string(), "range_starts_after_window_start");
    EXPECT_EQ(mtd.at("start_anchor").as_string(), "2025-05-31");
    EXPECT_TRUE(mtd.at("from").is_null());
    EXPECT_EQ(json.at("returns").at("since_first_quota").to_number<double>(),
              *summary.since_first_quota.value);
    EXPECT_EQ(json.at("volatility_annualized").to_number<double>(), *summary.volatility_annualized.value);
    EXPECT_EQ(json.at("sharpe_cdi").to_number<double>(), *summary.sharpe_cdi.value);
    EXPECT_EQ(json.at("max_drawdown").at("value").to_number<double>(), *summary.max_drawdown.value);
    EXPECT_EQ(json.at("max_drawdown").at("peak").as_string(), "2025-06-05");
    EXPECT_EQ(json.at("max_drawdown").at("recovery").as_string(), "2025-06-09");
    EXPECT_TRUE(json.at("months_above_cdi").at("above").is_null());
    EXPECT_EQ(json.at("months_above_cdi").at("of").as_int64(), 0);
    const boost::json::value& gap = json.at("gaps").at(0);
    EXPECT_EQ(gap.at("after").as_string(), "2025-06-03");
    EXPECT_EQ(gap.at("missing_business_days").as_int64(), 1);
    EXPECT_EQ(gap.at("reason").as_string(), "no_quota");
    EXPECT_EQ(gap.at("days").at(0).at("date").as_string(), "2025-06-04");
    EXPECT_TRUE(json.at("unusable_quotas").at(0).at("quota").is_null());
    EXPECT_EQ(json.at("window_context").as_object().size(), 10u);
    EXPECT_EQ(json.at("method").at("annualization_days").as_int64(), 252);
    EXPECT_NE(json.at("method").at("statement").as_string().find("not official"), std::string::npos);

    const std::vector<PerformanceRow> rows = DailyRows(InputOf(fund));
    const boost::json::value first = RowJson(rows[0]);
    EXPECT_TRUE(first.at("return").is_null());
    EXPECT_EQ(first.at("accumulated_return").to_number<double>(), 0.0);
    EXPECT_TRUE(first.at("pct_of_cdi").is_null());
    EXPECT_FALSE(first.at("provisional").as_bool());
    EXPECT_TRUE(first.at("month_complete").is_null()) << "a daily row";
    const boost::json::value blank = RowJson(rows[2]);
    EXPECT_TRUE(blank.at("accumulated_return").is_null());
    const boost::json::value later = RowJson(rows[3]);
    EXPECT_EQ(later.at("return").to_number<double>(), *rows[3].period_return);
    EXPECT_EQ(later.at("cdi_accumulated_return").to_number<double>(), *rows[3].cdi_accumulated);
    EXPECT_EQ(later.at("return_from").as_string(), "2025-06-03");
    ASSERT_TRUE(rows[3].pct_of_cdi.has_value());
    EXPECT_EQ(later.at("pct_of_cdi").to_number<double>(), *rows[3].pct_of_cdi * 100) << "in percent";
    const boost::json::value month = RowJson(MonthlyRows(InputOf(fund)).at(0));
    EXPECT_EQ(month.at("month").as_string(), "2025-06");
    EXPECT_FALSE(month.at("month_complete").as_bool())
        << "the range ends on the 9th, June's last business day is the 30th";
}

// The published CDI days are B3's: a day SGS published that the calendar holds a holiday is
// compounded too, and a business day of the calendar without a rate makes the CDI unknown.
TEST(FundPerformance, TheCdiCompoundsThePublishedDaysAndMissesNoBusinessDay) {
    PerformanceInput input;
    input.rows = {{{2024, 11, 19}, 1.0}, {{2024, 11, 21}, 1.001}, {{2024, 11, 25}, 1.002}};
    // 2024-11-20 became a national holiday that year; here it has a rate as if B3 had opened.
    input.cdi = {{{2024, 11, 19}, 1.0004}, {{2024, 11, 20}, 1.0003}, {{2024, 11, 21}, 1.0002}};
    input.last_complete_day = {2024, 12, 31};
    const std::vector<PerformanceRow> rows = DailyRows(input);
    ASSERT_EQ(rows.size(), 3u);
    ASSERT_TRUE(rows[1].cdi_return.has_value());
    EXPECT_DOUBLE_EQ(*rows[1].cdi_return, 1.0004 * 1.0003 - 1);
    // 2024-11-22 (a Friday) has no rate: the CDI from the 21st to the 25th is unknown.
    EXPECT_FALSE(rows[2].cdi_return.has_value());
    EXPECT_FALSE(rows[2].pct_of_cdi.has_value());
}

}  // namespace
}  // namespace lastro::series
