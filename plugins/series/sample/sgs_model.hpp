// The one rate model behind every series of the sample (docs/sample.md): a Selic target path
// moved at Copom meetings, the effective Selic and the CDI under it, hyperinflation-era rates
// before the Real (July 1994), and the IPCA month by month. Every value is an integer in the
// units SGS prints it with, so the files are written from exact arithmetic; the only floating
// point steps are the powers of B3's rule and of the hyperinflation model, in long double.
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace lastro::series::sgs_sample {

// The first business day the model covers: the first day of SGS 12 and 4389.
inline constexpr sdk::Date kModelFirstDay{1986, 3, 6};
// The first month of the IPCA (SGS 433).
inline constexpr sdk::Month kModelFirstMonth{1980, 1};
// The Real plan: before it daily rates follow the month's inflation, from it the target path.
inline constexpr sdk::Date kRealPlanDay{1994, 7, 1};

// B3's rule for the DI (and SGS's for the Selic): the daily factor (1 + annual/100)^(1/252)
// rounded half up to 8 decimals. `annual_bp` is the annual rate in hundredths of a percent
// (1165 = 11.65 % a year); the result is the daily rate in millionths of a percent, which is
// also the factor's fraction in units of 1e-8 (43739: 0.043739 % a day, factor 1.00043739).
std::int64_t DailyRateFromAnnual(std::int64_t annual_bp);

// (1 + annual/100)^(1/12) - 1 in units of 1e-4 % a month (a monthly rate with 4 decimals).
std::int64_t MonthlyRateFromAnnual(std::int64_t annual_bp);

// The month's rate compounded from its daily rates (millionths of a percent a day):
// (prod(1 + d/100) - 1) x 100, the product truncated to 16 decimals after each day (B3's rule),
// rounded half up to hundredths of a percent (SGS 4390, 4391).
std::int64_t CompoundedPercent(std::span<const std::int64_t> daily_rates);

struct ModelDay {
    sdk::Date date;
    std::optional<std::int64_t> target_bp;  // the Copom target in force, from the Real plan on
    std::int64_t selic_bp = 0;              // effective Selic, % a year, hundredths
    std::int64_t cdi_bp = 0;                // the DI rate, % a year base 252, hundredths
};

struct ModelMonth {
    sdk::Month month;
    std::int64_t ipca = 0;  // % change in the month, hundredths
};

class RateModel {
public:
    // Business days from kModelFirstDay to `last_day`, months from kModelFirstMonth to
    // `last_month`. The same seed gives the same values whatever the range asked.
    RateModel(std::uint64_t seed, const sdk::Date& last_day, const sdk::Month& last_month);

    const std::vector<ModelDay>& Days() const { return days_; }
    const std::vector<ModelMonth>& Months() const { return months_; }
    // The months whose IPCA the model forced (docs/sample.md): one at exactly 0.00, the rest
    // negative; all from 2019 on.
    const sdk::Month& ZeroIpcaMonth() const { return zero_month_; }
    const std::vector<sdk::Month>& NegativeIpcaMonths() const { return negative_months_; }
    std::size_t TargetChanges() const { return target_changes_; }

private:
    void BuildIpca(std::uint64_t seed, const sdk::Month& last_month);
    void BuildDays(std::uint64_t seed, const sdk::Date& last_day);
    std::int64_t IpcaOf(const sdk::Month& month) const;

    std::vector<ModelDay> days_;
    std::vector<ModelMonth> months_;
    sdk::Month zero_month_;
    std::vector<sdk::Month> negative_months_;
    std::size_t target_changes_ = 0;
};

// Months from January of year 0, for indexing and arithmetic.
inline int MonthIndex(const sdk::Month& month) {
    return month.year * 12 + month.month - 1;
}
inline sdk::Month MonthAt(int index) {
    return {index / 12, index % 12 + 1};
}

}  // namespace lastro::series::sgs_sample
