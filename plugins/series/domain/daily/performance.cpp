#include "domain/daily/performance.hpp"

#include "domain/business_calendar.hpp"

#include <lastro/sdk/sample/date_math.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace lastro::series {
namespace {

namespace sample = sdk::sample;

bool IsUsable(const std::optional<double>& quota) {
    return quota && std::isfinite(*quota) && *quota > 0;
}

sdk::Date NextBusinessDayAfter(const sdk::Date& day) {
    return NextBusinessDay(sample::AddDays(day, 1));
}

// The same calendar day `months` months earlier, clamped to that month's last day.
sdk::Date MonthsBefore(const sdk::Date& day, int months) {
    const int index = day.year * 12 + (day.month - 1) - months;
    const int year = index / 12;
    const int month = index % 12 + 1;
    return {year, month, std::min(day.day, sdk::DaysInMonth(year, month))};
}

sdk::Date LastDayOfPreviousMonth(const sdk::Date& day) {
    return sample::AddDays(sdk::Date{day.year, day.month, 1}, -1);
}

sdk::Date LastBusinessDayOfMonth(const sdk::Month& month) {
    sdk::Date day = sample::LastDayOfMonth(month.year, month.month);
    while (!IsBusinessDay(day)) {
        day = sample::AddDays(day, -1);
    }
    return day;
}

// The CDI's growth over a span of days [a, b): the product of its factors, or the first business
// day in the span without one.
struct CdiGrowth {
    std::optional<double> growth;
    std::optional<sdk::Date> missing_day;
};

// The growth over [a, c) from those over [a, b) and [b, c).
CdiGrowth Then(const CdiGrowth& first, const CdiGrowth& second) {
    if (!first.growth) {
        return first;
    }
    if (!second.growth) {
        return second;
    }
    return {*first.growth * *second.growth, std::nullopt};
}

// Π factor_t over the CDI's days t with from <= t < to (the DI of day t accrues from t to the
// next business day). Every business day of the calendar in [from, to) must have a factor (else
// the CDI is unknown, naming the day); a day SGS published that the calendar holds a holiday
// counts too: the published days are B3's, the calendar only says which may be missing.
CdiGrowth CdiOver(const std::vector<CdiFactor>& cdi, const sdk::Date& from, const sdk::Date& to) {
    auto it =
        std::lower_bound(cdi.begin(), cdi.end(), from,
                         [](const CdiFactor& factor, const sdk::Date& day) { return factor.day < day; });
    double growth = 1.0;
    sdk::Date expected = NextBusinessDay(from);
    for (; it != cdi.end() && it->day < to; ++it) {
        if (expected < it->day && expected < to) {
            return {std::nullopt, expected};
        }
        growth *= it->factor;
        if (!(it->day < expected)) {
            expected = NextBusinessDayAfter(it->day);
        }
    }
    if (expected < to) {
        return {std::nullopt, expected};
    }
    return {growth, std::nullopt};
}

std::optional<double> Excess(const std::optional<double>& fund, const std::optional<double>& cdi) {
    if (!fund || !cdi) {
        return std::nullopt;
    }
    return *fund - *cdi;
}

// The ratio of compounded returns; null when the CDI's is not positive.
std::optional<double> PctOfCdi(const std::optional<double>& fund, const std::optional<double>& cdi) {
    if (!fund || !cdi || !(*cdi > 0)) {
        return std::nullopt;
    }
    return *fund / *cdi;
}

std::optional<double> ReturnOf(const CdiGrowth& growth) {
    if (!growth.growth) {
        return std::nullopt;
    }
    return *growth.growth - 1.0;
}

struct Point {
    std::size_t row = 0;  // index in PerformanceInput::rows
    sdk::Date day;
    double quota = 0;
};

// The range's usable quotas, the returns between consecutive ones and the CDI over each.
struct Series {
    std::vector<Point> points;
    std::vector<double> returns;         // returns[k]: points[k] -> points[k + 1]
    std::vector<CdiGrowth> step_cdi;     // the CDI over [points[k].day, points[k + 1].day)
    std::vector<CdiGrowth> since_first;  // the CDI over [points[0].day, points[k].day)

    // The CDI from points[i] to points[j], i <= j.
    CdiGrowth CdiBetween(std::size_t i, std::size_t j) const {
        CdiGrowth growth{1.0, std::nullopt};
        for (std::size_t k = i; k < j && growth.growth; ++k) {
            growth = Then(growth, step_cdi[k]);
        }
        return growth;
    }
};

void CheckOrder(const PerformanceInput& input) {
    for (std::size_t i = 1; i < input.rows.size(); ++i) {
        if (!(input.rows[i - 1].day < input.rows[i].day)) {
            throw std::invalid_argument("performance: quota rows out of date order or repeated at " +
                                        input.rows[i].day.ToString());
        }
    }
    for (std::size_t i = 1; i < input.cdi.size(); ++i) {
        if (!(input.cdi[i - 1].day < input.cdi[i].day)) {
            throw std::invalid_argument("performance: CDI days out of date order or repeated at " +
                                        input.cdi[i].day.ToString());
        }
    }
}

Series Analyze(const PerformanceInput& input) {
    CheckOrder(input);
    Series series;
    for (std::size_t i = 0; i < input.rows.size(); ++i) {
        if (IsUsable(input.rows[i].quota)) {
            series.points.push_back({i, input.rows[i].day, *input.rows[i].quota});
        }
    }
    for (std::size_t k = 0; k < series.points.size(); ++k) {
        if (k == 0) {
            series.since_first.push_back({1.0, std::nullopt});
            continue;
        }
        const Point& a = series.points[k - 1];
        const Point& b = series.points[k];
        series.returns.push_back(b.quota / a.quota - 1.0);
        series.step_cdi.push_back(CdiOver(input.cdi, a.day, b.day));
        series.since_first.push_back(Then(series.since_first.back(), series.step_cdi.back()));
    }
    return series;
}

// The row of points[k] with its period starting at points[base] (none for the range's first).
PerformanceRow RowAt(const Series& series, const PerformanceInput& input, std::size_t k,
                     std::optional<std::size_t> base) {
    const Point& point = series.points[k];
    PerformanceRow row;
    row.day = point.day;
    row.quota = point.quota;
    row.provisional = input.last_complete_day < point.day;
    if (base) {
        row.return_from = series.points[*base].day;
        row.period_return = point.quota / series.points[*base].quota - 1.0;
        row.cdi_return = ReturnOf(series.CdiBetween(*base, k));
        row.excess_over_cdi = Excess(row.period_return, row.cdi_return);
        row.pct_of_cdi = PctOfCdi(row.period_return, row.cdi_return);
    }
    row.accumulated_return = point.quota / series.points.front().quota - 1.0;
    row.cdi_accumulated = ReturnOf(series.since_first[k]);
    row.accumulated_excess_over_cdi = Excess(row.accumulated_return, row.cdi_accumulated);
    row.accumulated_pct_of_cdi = PctOfCdi(row.accumulated_return, row.cdi_accumulated);
    return row;
}

// Sample mean and standard deviation (n - 1) of at least two values.
struct Moments {
    double mean = 0;
    double sd = 0;
};

Moments SampleMoments(const std::vector<double>& values) {
    double sum = 0;
    for (double value : values) {
        sum += value;
    }
    const double mean = sum / static_cast<double>(values.size());
    double squares = 0;
    for (double value : values) {
        squares += (value - mean) * (value - mean);
    }
    return {mean, std::sqrt(squares / static_cast<double>(values.size() - 1))};
}

void MarkUnavailable(WindowContext& window, std::string_view reason, std::string detail) {
    window.unavailable_reason = std::string(reason);
    window.detail = std::move(detail);
}

class Summarizer {
public:
    Summarizer(const PerformanceInput& input, const Series& series) : input_(input), series_(series) {
        std::size_t count = 0;  // points usable for the windowed figures
        for (const Point& point : series_.points) {
            if (input_.end_asked || !(input_.last_complete_day < point.day)) {
                ++count;
            }
        }
        if (count > 0) {
            end_ = count - 1;
        }
    }

    PerformanceSummary Run() {
        PerformanceSummary summary;
        summary.unusable_quotas = UnusableQuotas();
        summary.gaps = Gaps();
        if (end_) {
            summary.end = series_.points[*end_].day;
            const sdk::Date& end = series_.points[*end_].day;
            summary.month_to_date = ReturnSince("month_to_date", LastDayOfPreviousMonth(end), false);
            summary.year_to_date = ReturnSince("year_to_date", sdk::Date{end.year - 1, 12, 31}, false);
            summary.months_12 = ReturnSince("months_12", MonthsBefore(end, 12), true);
            summary.months_24 = ReturnSince("months_24", MonthsBefore(end, 24), true);
            summary.months_36 = ReturnSince("months_36", MonthsBefore(end, 36), true);
        } else {
            summary.month_to_date.window = Window("month_to_date");
            summary.year_to_date.window = Window("year_to_date");
            summary.months_12.window = Window("months_12");
            summary.months_24.window = Window("months_24");
            summary.months_36.window = Window("months_36");
        }
        summary.since_first_quota = SinceFirstQuota();
        summary.volatility_annualized = Volatility();
        summary.max_drawdown = MaxDrawdown();
        summary.sharpe_cdi = Sharpe();
        summary.months_above_cdi = MonthsAbove();
        return summary;
    }

private:
    // A window ending at the end quota; without one, unavailable (no usable quota).
    WindowContext Window(std::string covers) const {
        WindowContext window;
        window.covers = std::move(covers);
        if (end_) {
            window.to = series_.points[*end_].day;
            window.includes_provisional = input_.last_complete_day < *window.to;
        } else if (series_.points.empty()) {
            MarkUnavailable(window, kNoUsableQuota, "the range has no usable quota");
        } else {
            MarkUnavailable(window, kNoUsableQuota,
                            "no usable quota on or before the last complete day, " +
                                input_.last_complete_day.ToString() + " (later days are still being filed)");
        }
        return window;
    }

    // The window from points[0] to the end: unavailable (returned false) with fewer than
    // `needed` returns.
    bool SinceFirst(WindowContext& window, std::size_t needed) const {
        if (!end_) {
            return false;
        }
        window.from = series_.points.front().day;
        window.observations = *end_;
        if (*end_ < needed) {
            MarkUnavailable(window, kTooFewReturns,
                            std::to_string(*end_) + " daily return(s) from " + window.from->ToString() +
                                " to " + window.to->ToString() + "; the figure needs at least " +
                                std::to_string(needed));
            return false;
        }
        return true;
    }

    // The return from the last usable quota on or before `anchor` to the end quota.
    Figure ReturnSince(std::string covers, const sdk::Date& anchor, bool near_anchor) const {
        Figure figure{std::nullopt, Window(std::move(covers))};
        WindowContext& window = figure.window;
        window.start_anchor = anchor;
        const auto first_after = std::upper_bound(
            series_.points.begin(), series_.points.begin() + static_cast<std::ptrdiff_t>(*end_) + 1, anchor,
            [](const sdk::Date& day, const Point& point) { return day < point.day; });
        if (first_after == series_.points.begin()) {
            MarkUnavailable(window, kRangeStartsAfterWindowStart,
                            "the window starts at " + anchor.ToString() +
                                "; the range's first usable quota is from " +
                                series_.points.front().day.ToString());
            return figure;
        }
        const std::size_t base = static_cast<std::size_t>(first_after - series_.points.begin()) - 1;
        const std::int64_t distance = sample::DayNumber(anchor) - sample::DayNumber(series_.points[base].day);
        if (near_anchor && distance > kWindowStartToleranceDays) {
            MarkUnavailable(window, kNoQuotaNearWindowStart,
                            "the window starts at " + anchor.ToString() +
                                "; the last usable quota on or before it is from " +
                                series_.points[base].day.ToString() + ", " + std::to_string(distance) +
                                " calendar days earlier (at most " +
                                std::to_string(kWindowStartToleranceDays) + ")");
            return figure;
        }
        window.from = series_.points[base].day;
        window.observations = *end_ - base;
        figure.value = series_.points[*end_].quota / series_.points[base].quota - 1.0;
        return figure;
    }

    Figure SinceFirstQuota() const {
        Figure figure{std::nullopt, Window("since_first_quota")};
        if (SinceFirst(figure.window, 1)) {
            figure.value = series_.points[*end_].quota / series_.points.front().quota - 1.0;
        }
        return figure;
    }

    Figure Volatility() const {
        Figure figure{std::nullopt, Window("since_first_quota")};
        if (SinceFirst(figure.window, 2)) {
            const std::vector<double> returns(series_.returns.begin(),
                                              series_.returns.begin() + static_cast<std::ptrdiff_t>(*end_));
            figure.value = SampleMoments(returns).sd * std::sqrt(kAnnualizationDays);
        }
        return figure;
    }

    Drawdown MaxDrawdown() const {
        Drawdown drawdown;
        drawdown.window = Window("since_first_quota");
        if (!SinceFirst(drawdown.window, 1)) {
            return drawdown;
        }
        const std::vector<Point>& points = series_.points;
        std::size_t peak = 0;
        double deepest = 0;
        std::optional<std::size_t> deepest_peak;
        std::optional<std::size_t> trough;
        for (std::size_t k = 1; k <= *end_; ++k) {
            if (points[k].quota >= points[peak].quota) {
                peak = k;
                continue;
            }
            const double fall = points[k].quota / points[peak].quota - 1.0;
            if (fall < deepest) {
                deepest = fall;
                deepest_peak = peak;
                trough = k;
            }
        }
        drawdown.value = deepest;
        if (trough) {
            drawdown.peak = points[*deepest_peak].day;
            drawdown.trough = points[*trough].day;
            for (std::size_t k = *trough + 1; k <= *end_; ++k) {
                if (points[k].quota >= points[*deepest_peak].quota) {
                    drawdown.recovery = points[k].day;
                    break;
                }
            }
        }
        return drawdown;
    }

    Figure Sharpe() const {
        Figure figure{std::nullopt, Window("since_first_quota")};
        if (!SinceFirst(figure.window, 2)) {
            return figure;
        }
        std::vector<double> excess;
        for (std::size_t k = 0; k < *end_; ++k) {
            const CdiGrowth& cdi = series_.step_cdi[k];
            if (!cdi.growth) {
                MarkUnavailable(figure.window, kMissingCdiDay,
                                "the CDI has no factor for business day " + cdi.missing_day->ToString());
                return figure;
            }
            excess.push_back(series_.returns[k] - (*cdi.growth - 1.0));
        }
        const Moments moments = SampleMoments(excess);
        if (!(moments.sd > 0)) {
            MarkUnavailable(
                figure.window, kZeroDispersion,
                "the daily excess returns over the CDI do not vary: their standard deviation is 0");
            return figure;
        }
        figure.value = moments.mean / moments.sd * std::sqrt(kAnnualizationDays);
        return figure;
    }

    MonthsAboveCdi MonthsAbove() const {
        MonthsAboveCdi months;
        months.window = Window("complete_months");
        if (!end_) {
            return months;
        }
        const std::vector<Point>& points = series_.points;
        const sdk::Date& end = points[*end_].day;
        std::size_t above = 0;
        std::optional<sdk::Date> first_missing;
        // A month is judged from the last quota before it to its last quota, when the series has
        // a quota before it and reaches its last business day.
        for (std::size_t first = 1; first <= *end_;) {
            const sdk::Month month = points[first].day.ToMonth();
            std::size_t last = first;
            while (last + 1 <= *end_ && points[last + 1].day.ToMonth() == month) {
                ++last;
            }
            const std::size_t base = first - 1;
            if (points[base].day.ToMonth() < month && !(end < LastBusinessDayOfMonth(month))) {
                const CdiGrowth cdi = series_.CdiBetween(base, last);
                if (!months.window.from) {
                    months.window.from = points[base].day;
                }
                months.window.to = points[last].day;
                if (!cdi.growth) {
                    months.without_cdi.push_back(month);
                    if (!first_missing) {
                        first_missing = cdi.missing_day;
                    }
                } else {
                    ++months.of;
                    if (points[last].quota / points[base].quota > *cdi.growth) {
                        ++above;
                    }
                }
            }
            first = last + 1;
        }
        months.window.observations = months.of;
        if (months.of > 0) {
            months.above = above;
        } else if (first_missing) {
            MarkUnavailable(months.window, kMissingCdiDay,
                            "every complete month lacks a CDI factor; the first missing business day is " +
                                first_missing->ToString());
        } else {
            months.window.to = end;
            MarkUnavailable(months.window, kNoCompleteMonth,
                            "no calendar month of the range has a quota before it and reaches its last "
                            "business day by " +
                                end.ToString());
        }
        months.window.includes_provisional = months.window.to && input_.last_complete_day < *months.window.to;
        return months;
    }

    std::vector<UnusableQuota> UnusableQuotas() const {
        std::vector<UnusableQuota> unusable;
        for (const QuotaObservation& row : input_.rows) {
            if (!IsUsable(row.quota)) {
                unusable.push_back(
                    {row.day, row.quota, std::string(row.quota ? kQuotaNotPositive : kQuotaNull)});
            }
        }
        return unusable;
    }

    std::vector<Gap> Gaps() const {
        std::vector<Gap> gaps;
        const std::vector<Point>& points = series_.points;
        for (std::size_t k = 0; k + 1 < points.size(); ++k) {
            Gap gap{points[k].day, points[k + 1].day, {}, std::nullopt};
            std::size_t row = points[k].row + 1;  // the rows between are the unusable ones
            for (sdk::Date day = NextBusinessDayAfter(gap.after); day < gap.before;
                 day = NextBusinessDayAfter(day)) {
                while (row < points[k + 1].row && input_.rows[row].day < day) {
                    ++row;
                }
                MissingDay missing{day, std::nullopt};
                if (row < points[k + 1].row && input_.rows[row].day == day) {
                    missing.reason = std::string(kNoQuota);
                } else if (input_.day_published) {
                    missing.reason = std::string(input_.day_published(day) ? kNotFiled : kNotPublished);
                }
                gap.missing.push_back(std::move(missing));
            }
            if (gap.missing.empty()) {
                continue;
            }
            gap.reason = gap.missing.front().reason;
            for (const MissingDay& missing : gap.missing) {
                if (!missing.reason) {
                    gap.reason.reset();
                    break;
                }
                if (gap.reason != missing.reason) {
                    gap.reason = "mixed";
                }
            }
            gaps.push_back(std::move(gap));
        }
        return gaps;
    }

    const PerformanceInput& input_;
    const Series& series_;
    std::optional<std::size_t> end_;  // index in series_.points of the windows' last quota
};

}  // namespace

std::vector<PerformanceRow> DailyRows(const PerformanceInput& input) {
    const Series series = Analyze(input);
    std::vector<PerformanceRow> rows;
    std::size_t k = 0;  // the next usable point
    for (std::size_t i = 0; i < input.rows.size(); ++i) {
        if (k < series.points.size() && series.points[k].row == i) {
            rows.push_back(RowAt(series, input, k, k > 0 ? std::optional<std::size_t>(k - 1) : std::nullopt));
            ++k;
            continue;
        }
        PerformanceRow row;
        row.day = input.rows[i].day;
        row.quota = input.rows[i].quota;
        row.provisional = input.last_complete_day < row.day;
        rows.push_back(row);
    }
    return rows;
}

std::vector<PerformanceRow> MonthlyRows(const PerformanceInput& input) {
    std::vector<PerformanceRow> rows;
    if (input.rows.empty()) {
        return rows;
    }
    const Series series = Analyze(input);
    const sdk::Date range_end = input.rows.back().day;
    std::optional<std::size_t> base;
    for (std::size_t k = 0; k < series.points.size(); ++k) {
        const sdk::Month month = series.points[k].day.ToMonth();
        if (k + 1 < series.points.size() && series.points[k + 1].day.ToMonth() == month) {
            continue;  // not the month's last usable quota
        }
        if (!base && k > 0) {
            base = 0;  // the first month's period starts at the range's first usable quota
        }
        PerformanceRow row = RowAt(series, input, k, base);
        row.month_complete = !(range_end < LastBusinessDayOfMonth(month));
        rows.push_back(row);
        base = k;
    }
    return rows;
}

PerformanceSummary Summarize(const PerformanceInput& input) {
    const Series series = Analyze(input);
    return Summarizer(input, series).Run();
}

}  // namespace lastro::series
