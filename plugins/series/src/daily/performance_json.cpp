#include "src/daily/performance_json.hpp"

#include <lastro/sdk/serving/json_values.hpp>

#include <boost/json/array.hpp>

#include <cstdint>

namespace lastro::series {
namespace {

boost::json::value Count(std::size_t count) {
    return static_cast<std::int64_t>(count);
}

boost::json::object WindowJson(const WindowContext& window) {
    return {
        {"covers", window.covers},
        {"start_anchor", sdk::JsonOrNull(window.start_anchor)},
        {"from", sdk::JsonOrNull(window.from)},
        {"to", sdk::JsonOrNull(window.to)},
        {"observations", Count(window.observations)},
        {"includes_provisional", window.includes_provisional},
        {"unavailable_reason", sdk::JsonOrNull(window.unavailable_reason)},
        {"detail", sdk::JsonOrNull(window.detail)},
    };
}

boost::json::array GapsJson(const std::vector<Gap>& gaps) {
    boost::json::array out;
    for (const Gap& gap : gaps) {
        boost::json::array days;
        for (const MissingDay& missing : gap.missing) {
            days.push_back(boost::json::object{{"date", boost::json::value_from(missing.day)},
                                               {"reason", sdk::JsonOrNull(missing.reason)}});
        }
        out.push_back(boost::json::object{
            {"after", boost::json::value_from(gap.after)},
            {"before", boost::json::value_from(gap.before)},
            {"missing_business_days", Count(gap.missing.size())},
            {"reason", sdk::JsonOrNull(gap.reason)},
            {"days", std::move(days)},
        });
    }
    return out;
}

boost::json::array UnusableJson(const std::vector<UnusableQuota>& unusable) {
    boost::json::array out;
    for (const UnusableQuota& quota : unusable) {
        out.push_back(boost::json::object{{"date", boost::json::value_from(quota.day)},
                                          {"quota", sdk::JsonOrNull(quota.quota)},
                                          {"reason", quota.reason}});
    }
    return out;
}

}  // namespace

namespace {

// A ratio of returns as the percentage analysts quote ("105 % of the CDI").
std::optional<double> Percent(const std::optional<double>& ratio) {
    return ratio ? std::optional<double>(*ratio * 100) : std::nullopt;
}

}  // namespace

void WritePerformanceFigures(sdk::JsonText& json, const PerformanceRow& row) {
    json.Key("return_from")
        .Value(row.return_from ? std::optional<std::string>(row.return_from->ToString()) : std::nullopt);
    json.Key("return").Value(row.period_return);
    json.Key("accumulated_return").Value(row.accumulated_return);
    json.Key("cdi_return").Value(row.cdi_return);
    json.Key("cdi_accumulated_return").Value(row.cdi_accumulated);
    json.Key("excess_over_cdi").Value(row.excess_over_cdi);
    json.Key("pct_of_cdi").Value(Percent(row.pct_of_cdi));
    json.Key("accumulated_excess_over_cdi").Value(row.accumulated_excess_over_cdi);
    json.Key("accumulated_pct_of_cdi").Value(Percent(row.accumulated_pct_of_cdi));
    json.Key("provisional").Value(row.provisional);
    json.Key("month").Value(row.day.ToMonth().ToString());
    json.Key("month_complete").Value(row.month_complete);
}

boost::json::object PerformanceSummaryJson(const PerformanceSummary& summary) {
    const MonthsAboveCdi& months = summary.months_above_cdi;
    boost::json::array without_cdi;
    for (const sdk::Month& month : months.without_cdi) {
        without_cdi.push_back(boost::json::value_from(month));
    }
    return {
        {"end_date", sdk::JsonOrNull(summary.end)},
        {"returns",
         boost::json::object{
             {"month_to_date", sdk::JsonOrNull(summary.month_to_date.value)},
             {"year_to_date", sdk::JsonOrNull(summary.year_to_date.value)},
             {"months_12", sdk::JsonOrNull(summary.months_12.value)},
             {"months_24", sdk::JsonOrNull(summary.months_24.value)},
             {"months_36", sdk::JsonOrNull(summary.months_36.value)},
             {"since_first_quota", sdk::JsonOrNull(summary.since_first_quota.value)},
         }},
        {"volatility_annualized", sdk::JsonOrNull(summary.volatility_annualized.value)},
        {"max_drawdown",
         boost::json::object{
             {"value", sdk::JsonOrNull(summary.max_drawdown.value)},
             {"peak", sdk::JsonOrNull(summary.max_drawdown.peak)},
             {"trough", sdk::JsonOrNull(summary.max_drawdown.trough)},
             {"recovery", sdk::JsonOrNull(summary.max_drawdown.recovery)},
         }},
        {"sharpe_cdi", sdk::JsonOrNull(summary.sharpe_cdi.value)},
        {"months_above_cdi",
         boost::json::object{
             {"above", months.above ? boost::json::value(Count(*months.above)) : boost::json::value(nullptr)},
             {"of", Count(months.of)},
             {"without_cdi", std::move(without_cdi)},
         }},
        {"gaps", GapsJson(summary.gaps)},
        {"unusable_quotas", UnusableJson(summary.unusable_quotas)},
        {"window_context",
         boost::json::object{
             {"month_to_date", WindowJson(summary.month_to_date.window)},
             {"year_to_date", WindowJson(summary.year_to_date.window)},
             {"months_12", WindowJson(summary.months_12.window)},
             {"months_24", WindowJson(summary.months_24.window)},
             {"months_36", WindowJson(summary.months_36.window)},
             {"since_first_quota", WindowJson(summary.since_first_quota.window)},
             {"volatility_annualized", WindowJson(summary.volatility_annualized.window)},
             {"max_drawdown", WindowJson(summary.max_drawdown.window)},
             {"sharpe_cdi", WindowJson(summary.sharpe_cdi.window)},
             {"months_above_cdi", WindowJson(months.window)},
         }},
        {"method", PerformanceMethodJson()},
    };
}

boost::json::object PerformanceMethodJson() {
    return {
        {"statement",
         "Computed by the service from the quotas the fund published in CVM's daily report; not official "
         "returns."},
        {"returns",
         "Between consecutive usable published quotas (not null, positive); a missing day is never filled, "
         "so "
         "a return may span a gap (listed in gaps) and counts once."},
        {"annualization_days", 252},
        {"volatility_estimator", "sample standard deviation (n - 1) of the daily returns, times sqrt(252)"},
        {"sharpe",
         "arithmetic mean of the daily excess returns over the CDI divided by their sample standard "
         "deviation "
         "(n - 1), times sqrt(252)"},
        {"cdi_convention",
         "the CDI over a return from published day a to published day b is the product of (1 + SGS 12 "
         "rate/100) over the business days t with a <= t < b; null when one of them has no rate"},
        {"excess_over_cdi", "fund return minus CDI return over the same days"},
        {"pct_of_cdi",
         "fund return divided by CDI return over the same days, both compounded, in percent (105.0 is "
         "105 % of the CDI); null when the CDI return is not positive"},
        {"arithmetic", "double precision from the published decimal quotas and CDI rates"},
    };
}

}  // namespace lastro::series
