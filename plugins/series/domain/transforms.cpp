#include "domain/transforms.hpp"

#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <cstdio>

namespace lastro::series {
namespace {

// Days since 1970-01-01 (Howard Hinnant's days_from_civil) and back.
long DaysFromCivil(int y, int m, int d) {
    y -= m <= 2;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const long yoe = y - era * 400;
    const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

sdk::Date CivilFromDays(long z) {
    z += 719468;
    const long era = (z >= 0 ? z : z - 146096) / 146097;
    const long doe = z - era * 146097;
    const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const long mp = (5 * doy + 2) / 153;
    const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    const int y = static_cast<int>(yoe + era * 400 + (m <= 2 ? 1 : 0));
    return {y, m, d};
}

std::string Digits(int value, int width) {
    char text[16];
    std::snprintf(text, sizeof text, "%0*d", width, value);
    return text;
}

bool Aggregates(const SeriesSpec& spec, Frequency frequency) {
    return frequency != spec.frequency;
}

// The calendar period of `date` at `frequency`.
void PeriodOf(const sdk::Date& date, Frequency frequency, sdk::Date& start, sdk::Date& last,
              std::string& key) {
    switch (frequency) {
        case Frequency::kDaily:
            start = last = date;
            key = date.ToString();
            return;
        case Frequency::kMonthly:
            start = {date.year, date.month, 1};
            last = {date.year, date.month, sdk::DaysInMonth(date.year, date.month)};
            key = Digits(date.year, 4) + "-" + Digits(date.month, 2);
            return;
        case Frequency::kYearly:
            start = {date.year, 1, 1};
            last = {date.year, 12, 31};
            key = Digits(date.year, 4);
            return;
    }
}

std::optional<std::string> Percent(const std::optional<Real>& growth) {
    if (!growth) {
        return std::nullopt;
    }
    return PercentOfGrowth(*growth);
}

// Observations per year of the series' own frequency (annualizing).
long double PerYear(const SeriesSpec& spec) {
    return spec.frequency == Frequency::kDaily ? 252.0L : 12.0L;
}

}  // namespace

std::optional<Frequency> ParseFrequency(const std::string& text) {
    if (text == "daily") {
        return Frequency::kDaily;
    }
    if (text == "monthly") {
        return Frequency::kMonthly;
    }
    if (text == "yearly") {
        return Frequency::kYearly;
    }
    return std::nullopt;
}

std::optional<Transform> ParseTransform(const std::string& text) {
    if (text == "none") {
        return Transform::kNone;
    }
    if (text == "accumulated") {
        return Transform::kAccumulated;
    }
    if (text == "accumulated_12m") {
        return Transform::kAccumulated12m;
    }
    if (text == "annualized") {
        return Transform::kAnnualized;
    }
    return std::nullopt;
}

std::string ToString(Transform transform) {
    switch (transform) {
        case Transform::kNone:
            return "none";
        case Transform::kAccumulated:
            return "accumulated";
        case Transform::kAccumulated12m:
            return "accumulated_12m";
        case Transform::kAnnualized:
            return "annualized";
    }
    return "none";
}

void CheckQuery(const SeriesSpec& spec, Frequency frequency, Transform transform) {
    const std::string code = std::to_string(spec.code);
    if (spec.frequency == Frequency::kMonthly && frequency == Frequency::kDaily) {
        throw sdk::InvalidParameter("frequency", "series " + code +
                                                     " is published monthly: daily rows would invent days; "
                                                     "ask monthly or yearly");
    }
    if (spec.kind == SeriesKind::kLevel) {
        if (transform == Transform::kAccumulated || transform == Transform::kAccumulated12m) {
            throw sdk::InvalidParameter("transform",
                                        "series " + code + " is a level (" + spec.name +
                                            "), not a rate of change: it is not compounded; use "
                                            "none" +
                                            (spec.rate_per == RatePer::kYear ? " or annualized" : ""));
        }
        if (transform == Transform::kAnnualized && spec.rate_per != RatePer::kYear) {
            throw sdk::InvalidParameter("transform", "series " + code + " is a level quoted per " +
                                                         ToString(spec.rate_per) +
                                                         ": it cannot be annualized");
        }
    }
}

std::string ServedUnit(const SeriesSpec& spec, Frequency frequency, Transform transform) {
    switch (transform) {
        case Transform::kNone:
            if (spec.kind == SeriesKind::kLevel || !Aggregates(spec, frequency)) {
                return PublishedUnit(spec);
            }
            return frequency == Frequency::kMonthly ? "percent_per_month" : "percent_per_year";
        case Transform::kAccumulated:
            return "percent_accumulated_over_range";
        case Transform::kAccumulated12m:
            return "percent_over_12_months";
        case Transform::kAnnualized:
            return "percent_per_year";
    }
    return PublishedUnit(spec);
}

std::optional<int> ServedDecimals(const SeriesSpec& spec, Frequency frequency, Transform transform) {
    const bool as_published = (transform == Transform::kNone &&
                               (spec.kind == SeriesKind::kLevel || !Aggregates(spec, frequency))) ||
                              (transform == Transform::kAnnualized && spec.rate_per == RatePer::kYear &&
                               !Aggregates(spec, frequency)) ||
                              (transform == Transform::kAnnualized && spec.kind == SeriesKind::kLevel);
    if (as_published) {
        return std::nullopt;
    }
    return kServedDecimals;
}

std::size_t RangeBegin(const SeriesData& data, const SeriesQuery& query) {
    return query.from ? data.LowerBound(*query.from) : 0;
}

std::vector<PeriodSpan> PeriodsInRange(const SeriesData& data, const SeriesQuery& query) {
    return PeriodsInRange(data, query, RangeBegin(data, query), data.Size());
}

std::optional<std::size_t> IndexAfterPeriod(const SeriesData& data, Frequency frequency,
                                            const std::string& key) {
    std::optional<sdk::Date> start;
    if (frequency == Frequency::kDaily && key.size() == 10) {
        start = sdk::Date::Parse(key);
    } else if (frequency == Frequency::kMonthly && key.size() == 7) {
        start = sdk::Date::Parse(key + "-01");
    } else if (frequency == Frequency::kYearly && key.size() == 4) {
        start = sdk::Date::Parse(key + "-01-01");
    }
    if (!start) {
        return std::nullopt;
    }
    sdk::Date first;
    sdk::Date last;
    std::string same;
    PeriodOf(*start, frequency, first, last, same);
    return data.UpperBound(last);
}

std::vector<PeriodSpan> PeriodsInRange(const SeriesData& data, const SeriesQuery& query, std::size_t first,
                                       std::size_t max_periods) {
    const std::size_t begin = std::max(first, RangeBegin(data, query));
    const std::size_t end = query.to ? data.UpperBound(*query.to) : data.Size();
    std::vector<PeriodSpan> periods;
    for (std::size_t i = begin; i < end && periods.size() < max_periods;) {
        PeriodSpan span;
        PeriodOf(data.DateAt(i), query.frequency, span.start, span.last, span.key);
        span.begin = i;
        // A month or a year ends by search, not by walking its days.
        i = query.frequency == Frequency::kDaily ? i + 1 : std::min(end, data.UpperBound(span.last));
        span.end = i;
        periods.push_back(std::move(span));
    }
    return periods;
}

ServedRow ServeRow(const SeriesData& data, const SeriesQuery& query, const PeriodSpan& period,
                   std::size_t range_begin) {
    const SeriesSpec& spec = data.Spec();
    const bool aggregated = Aggregates(spec, query.frequency);
    ServedRow row;
    row.date = aggregated ? period.start : data.DateAt(period.begin);
    row.period = period.key;
    row.observations = period.end - period.begin;
    row.last_observation = data.DateAt(period.end - 1);
    if (aggregated) {
        const bool cut_by_range =
            (query.from && *query.from > period.start) || (query.to && *query.to < period.last);
        const bool history_starts_inside = period.begin == 0 && data.DateAt(0) > period.start;
        const bool not_over = period.end == data.Size() && data.DateAt(data.Size() - 1) < period.last;
        row.partial = cut_by_range || history_starts_inside || not_over;
    }
    const auto& last_value = data.Observations()[period.end - 1].value;
    switch (query.transform) {
        case Transform::kNone:
            if (!aggregated) {
                row.value = last_value;
            } else if (spec.kind == SeriesKind::kLevel) {
                row.value = last_value;
            } else {
                row.value = Percent(data.Compounded(period.begin, period.end));
            }
            break;
        case Transform::kAccumulated:
            row.value = Percent(data.Compounded(range_begin, period.end));
            break;
        case Transform::kAccumulated12m: {
            const sdk::Date window_start = TwelveMonthWindowStart(period.last);
            const std::size_t first = data.LowerBound(window_start);
            const bool covered = first > 0 || (data.Size() > 0 && data.DateAt(0) <= window_start);
            if (!covered) {
                row.partial = true;
                row.value = std::nullopt;
            } else {
                row.value = Percent(data.Compounded(first, period.end));
            }
            break;
        }
        case Transform::kAnnualized:
            if (spec.kind == SeriesKind::kLevel || (!aggregated && spec.rate_per == RatePer::kYear)) {
                row.value = last_value;  // already a yearly figure
            } else if (std::optional<Real> growth = data.Compounded(period.begin, period.end)) {
                const long double count = static_cast<long double>(period.end - period.begin);
                row.value = PercentOfGrowth(Power(*growth, PerYear(spec) / count));
            }
            break;
    }
    return row;
}

sdk::Date AddDays(const sdk::Date& date, int days) {
    return CivilFromDays(DaysFromCivil(date.year, date.month, date.day) + days);
}

sdk::Date TwelveMonthWindowStart(const sdk::Date& last) {
    const int year = last.year - 1;
    const sdk::Date year_before{year, last.month, std::min(last.day, sdk::DaysInMonth(year, last.month))};
    return AddDays(year_before, 1);
}

}  // namespace lastro::series
