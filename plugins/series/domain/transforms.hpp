// Frequencies and transforms of an SGS series, rate-aware (docs/transforms.md): a percentage
// rate is compounded (the product of 1 + r/100), never summed or averaged; a level (the Selic
// target) takes a period's last value. A row stands for one observation (the series' own
// frequency) or one month or year of them; `partial` says when what it stands for is not
// covered whole.
#pragma once

#include "domain/series_data.hpp"

#include <lastro/sdk/calendar.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lastro::series {

enum class Transform { kNone, kAccumulated, kAccumulated12m, kAnnualized };

// The manifest's enum texts; nullopt for anything else.
std::optional<Frequency> ParseFrequency(const std::string& text);
std::optional<Transform> ParseTransform(const std::string& text);
std::string ToString(Transform transform);

struct SeriesQuery {
    std::optional<sdk::Date> from;  // inclusive; nullopt: from the first observation
    std::optional<sdk::Date> to;    // inclusive; nullopt: through the last observation
    Frequency frequency = Frequency::kDaily;
    Transform transform = Transform::kNone;
};

// Throws sdk::InvalidParameter (naming `frequency` or `transform`) for what the series cannot
// answer: a frequency finer than its own, or compounding a level.
void CheckQuery(const SeriesSpec& spec, Frequency frequency, Transform transform);

// What a served value is measured in, and its decimals (nullopt: as published).
std::string ServedUnit(const SeriesSpec& spec, Frequency frequency, Transform transform);
std::optional<int> ServedDecimals(const SeriesSpec& spec, Frequency frequency, Transform transform);

// The observations [begin, end) of one period, and its calendar bounds.
struct PeriodSpan {
    std::size_t begin = 0;
    std::size_t end = 0;
    sdk::Date start;  // the period's first calendar day (the day itself for a daily row)
    sdk::Date last;   // its last calendar day
    std::string key;  // "2023-12-29", "2023-12" or "2023": ordered as the periods are
};

// The periods of the observations within the query's range, in date order: at most
// `max_periods`, from the period of observation `first` on (a page starts after the last
// period of the one before; RangeBegin for the first page).
std::vector<PeriodSpan> PeriodsInRange(const SeriesData& data, const SeriesQuery& query, std::size_t first,
                                       std::size_t max_periods);
// Every period of the range.
std::vector<PeriodSpan> PeriodsInRange(const SeriesData& data, const SeriesQuery& query);

// The index of the first observation after the period whose key is `key` (a cursor's), or
// nullopt when `key` is not a period key of `frequency`.
std::optional<std::size_t> IndexAfterPeriod(const SeriesData& data, Frequency frequency,
                                            const std::string& key);

// The index of the range's first observation (where `accumulated` starts).
std::size_t RangeBegin(const SeriesData& data, const SeriesQuery& query);

struct ServedRow {
    sdk::Date date;                    // the observation's date, or the period's first day
    std::string period;                // PeriodSpan::key
    std::optional<std::string> value;  // JSON number text; nullopt: null
    std::size_t observations = 0;
    sdk::Date last_observation;
    bool partial = false;
};

// One row: `period` of PeriodsInRange, `range_begin` of RangeBegin.
ServedRow ServeRow(const SeriesData& data, const SeriesQuery& query, const PeriodSpan& period,
                   std::size_t range_begin);

// Calendar helpers (proleptic Gregorian).
sdk::Date AddDays(const sdk::Date& date, int days);
// The first day of the 12-month window that ends on `last` (the same day a year before, + 1).
sdk::Date TwelveMonthWindowStart(const sdk::Date& last);

}  // namespace lastro::series
