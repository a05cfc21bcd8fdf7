// A fund's performance from its published daily quotas (GET /v1/series-diarias/{cnpj}/desempenho;
// the formulas, windows and conventions are in docs/performance.md): the rows (daily, or one a
// month), and the summary of the range (returns over windows, volatility, drawdown, Sharpe against
// the CDI, months above the CDI), each figure with the window it covers or why it is unavailable.
// Pure functions: no database, no JSON (src/daily/performance_json.hpp writes them).
//
// These are figures the service computes from the published quotas, not official returns. They
// are computed in double from the published decimal quotas and CDI factors: a return between
// two quotas of 8 decimals is exact to about 1e-16, far below the 1e-12 the answers promise.
//
// Returns are taken between CONSECUTIVE USABLE quotas (published, not null, positive): a day
// without one is never filled, so a return may span several business days (the gap is listed)
// and counts as one observation.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::series {

// Business days in a year, for annualizing daily volatility and Sharpe (ANBIMA's base).
inline constexpr double kAnnualizationDays = 252.0;
// A 12/24/36-month window needs a quota at most this many calendar days before its start.
inline constexpr int kWindowStartToleranceDays = 7;

// Why a figure is unavailable (WindowContext::unavailable_reason).
inline constexpr std::string_view kNoUsableQuota = "no_usable_quota";
inline constexpr std::string_view kTooFewReturns = "too_few_returns";
inline constexpr std::string_view kRangeStartsAfterWindowStart = "range_starts_after_window_start";
inline constexpr std::string_view kNoQuotaNearWindowStart = "no_quota_near_window_start";
inline constexpr std::string_view kMissingCdiDay = "missing_cdi_day";
inline constexpr std::string_view kZeroDispersion = "zero_dispersion";
inline constexpr std::string_view kNoCompleteMonth = "no_complete_month";

// Why a business day inside a gap has no usable quota (MissingDay::reason).
inline constexpr std::string_view kNotPublished = "not_published";  // no fund in the dataset that day
inline constexpr std::string_view kNotFiled = "not_filed";          // others filed, this fund did not
inline constexpr std::string_view kNoQuota = "no_quota";            // filed, quota null or not positive

// Why a published row's quota is not usable (UnusableQuota::reason).
inline constexpr std::string_view kQuotaNull = "null";
inline constexpr std::string_view kQuotaNotPositive = "not_positive";

// One published row of the fund, in date order; `quota` is null when published blank.
struct QuotaObservation {
    sdk::Date day;
    std::optional<double> quota;
};

// One CDI business day: factor = 1 + rate/100, rate the SGS 12 daily rate (% a day). Date order.
struct CdiFactor {
    sdk::Date day;
    double factor = 1.0;
};

struct PerformanceInput {
    std::vector<QuotaObservation> rows;  // the range's rows, strictly increasing days
    std::vector<CdiFactor> cdi;          // covering at least the range, strictly increasing days
    sdk::Date last_complete_day;         // later days are still being filed: provisional
    bool end_asked = false;              // the caller asked for the range's end (to_date)
    // Whether any fund of the dataset filed on a day; empty: unknown (gap reasons then null
    // unless the fund filed a row without a usable quota).
    std::function<bool(const sdk::Date&)> day_published;
};

// One row: a published day (daily), or a month at its last usable quota (monthly). Returns and
// the CDI are fractions; null when unknown (an unusable quota, a CDI day missing, no base).
struct PerformanceRow {
    sdk::Date day;
    std::optional<double> quota;                        // as published
    std::optional<sdk::Date> return_from;               // the usable quota the period return starts from
    std::optional<double> period_return;                // quota / quota(return_from) - 1
    std::optional<double> accumulated_return;           // quota / first usable quota of the range - 1
    std::optional<double> cdi_return;                   // the CDI over [return_from, day)
    std::optional<double> cdi_accumulated;              // the CDI over [first usable quota's day, day)
    std::optional<double> excess_over_cdi;              // period_return - cdi_return
    std::optional<double> pct_of_cdi;                   // period_return / cdi_return, when cdi_return > 0
    std::optional<double> accumulated_excess_over_cdi;  // accumulated_return - cdi_accumulated
    std::optional<double> accumulated_pct_of_cdi;       // accumulated_return / cdi_accumulated, when > 0
    bool provisional = false;                           // day > last_complete_day
    std::optional<bool> month_complete;  // monthly rows only: the range reaches the month's last business day
};

// DailyRows, MonthlyRows and Summarize throw std::invalid_argument when the rows or the CDI days
// are not strictly increasing.

// Every published row, in order; a row without a usable quota has null figures.
std::vector<PerformanceRow> DailyRows(const PerformanceInput& input);
// One row per calendar month with a usable quota, at its last one; its period return starts at
// the previous month's row (the first month's at the range's first usable quota).
std::vector<PerformanceRow> MonthlyRows(const PerformanceInput& input);

// The window a summary figure covers, or why it has no value.
struct WindowContext {
    std::string covers;                     // "month_to_date", ..., "since_first_quota", "complete_months"
    std::optional<sdk::Date> start_anchor;  // the calendar day the window starts from, when it has one
    std::optional<sdk::Date> from;          // the first quota used (the window's base)
    std::optional<sdk::Date> to;            // the last quota used
    std::size_t observations = 0;           // returns (months for complete_months) counted
    bool includes_provisional = false;      // `to` is after last_complete_day
    std::optional<std::string> unavailable_reason;  // one of the k* codes above; null with a value
    std::optional<std::string> detail;              // the reason in words, naming the day at fault
};

struct Figure {
    std::optional<double> value;
    WindowContext window;
};

// The deepest fall from a running maximum of the quota, as a fraction <= 0. 0 with null dates
// when the quota never fell.
struct Drawdown {
    std::optional<double> value;
    std::optional<sdk::Date> peak;      // the last day the quota stood at the maximum it fell from
    std::optional<sdk::Date> trough;    // the lowest quota of that fall
    std::optional<sdk::Date> recovery;  // the first later day at or above the peak; null: not recovered
    WindowContext window;
};

// Complete months whose compounded fund return beat the CDI's over the same days: `above` of `of`.
struct MonthsAboveCdi {
    std::optional<std::size_t> above;
    std::size_t of = 0;                   // months judged
    std::vector<sdk::Month> without_cdi;  // complete months not judged: a CDI day missing
    WindowContext window;
};

struct MissingDay {
    sdk::Date day;
    std::optional<std::string> reason;  // kNotPublished, kNotFiled, kNoQuota; null when unknown
};

// Consecutive usable quotas more than one business day apart.
struct Gap {
    sdk::Date after;
    sdk::Date before;
    std::vector<MissingDay> missing;    // the business days strictly between
    std::optional<std::string> reason;  // the days' common reason, "mixed", or null if any is unknown
};

struct UnusableQuota {
    sdk::Date day;
    std::optional<double> quota;
    std::string reason;  // kQuotaNull or kQuotaNotPositive
};

struct PerformanceSummary {
    // The last quota the windowed figures use: the last usable quota on or before
    // last_complete_day, or the range's last usable quota when end_asked.
    std::optional<sdk::Date> end;
    Figure month_to_date;
    Figure year_to_date;
    Figure months_12;
    Figure months_24;
    Figure months_36;
    Figure since_first_quota;
    Figure volatility_annualized;  // sample standard deviation (n - 1) of daily returns x sqrt(252)
    Drawdown max_drawdown;
    Figure sharpe_cdi;  // mean / sample standard deviation of daily excess returns x sqrt(252)
    MonthsAboveCdi months_above_cdi;
    std::vector<Gap> gaps;                       // over the whole range
    std::vector<UnusableQuota> unusable_quotas;  // over the whole range
};

PerformanceSummary Summarize(const PerformanceInput& input);

}  // namespace lastro::series
