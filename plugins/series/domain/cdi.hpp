// The CDI as B3 computes with it (docs/cdi.md): the daily factor is 1 + the SGS 12 rate/100
// (B3's TDI factor, (1 + DI/100)^(1/252) rounded to 8 decimals, which SGS 12 publishes as a
// percentage with 6 decimals); factors accumulate as a product truncated to 16 decimals after
// each day. SGS 4389 (the annual rate, 2 decimals) gives the cross-check.
#pragma once

#include "domain/decimal_math.hpp"
#include "domain/series_data.hpp"
#include "domain/transforms.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::series {

// The decimals of an accumulated factor (B3: truncated here after each day).
inline constexpr int kAccumulationDecimals = 16;

// (1 + annual/100)^(1/252) rounded half up to 8 decimals, exactly: long double finds it, and
// an exact integer comparison settles a result near a tie. "1.00043739" for "11.65".
std::string DailyFactorFromAnnual(std::string_view annual_percent_text);

// 1 + rate/100 at kAccumulationDecimals decimals; nullopt when the rate has more than 14
// decimals (B3's factor has 8: such a value is not the DI's).
std::optional<Wide> DailyFactor(std::string_view daily_percent_text);

// `accumulated` x `factor`, both at kAccumulationDecimals, truncated to kAccumulationDecimals.
Wide AccumulateTruncated(const Wide& accumulated, const Wide& factor);

// 1 at kAccumulationDecimals.
Wide OneAccumulated();

// The CDI's days (SGS 12) with the same day's annual rate (SGS 4389).
class CdiData {
public:
    CdiData(std::shared_ptr<const SeriesData> daily, std::shared_ptr<const SeriesData> annual);

    const SeriesData& Daily() const { return *daily_; }
    // The annual rate published for day `i` of Daily(); nullopt when none or empty.
    const std::optional<std::string>& AnnualAt(std::size_t i) const { return annual_[i]; }
    const std::optional<Wide>& FactorAt(std::size_t i) const { return factors_[i]; }
    // FactorAt(i) as served: with its published decimals ("1.00043739").
    const std::optional<std::string>& FactorTextAt(std::size_t i) const { return factor_texts_[i]; }
    const std::optional<std::string>& FactorFromAnnualAt(std::size_t i) const { return from_annual_[i]; }

private:
    std::shared_ptr<const SeriesData> daily_;
    std::vector<std::optional<std::string>> annual_;
    std::vector<std::optional<Wide>> factors_;
    std::vector<std::optional<std::string>> factor_texts_;
    std::vector<std::optional<std::string>> from_annual_;
};

struct CdiRow {
    ServedRow base;  // date, period, observations, partial and, but for none/accumulated, value
    std::optional<std::string> annual_rate_pct;
    std::optional<std::string> rate_pct;
    std::optional<std::string> factor;
    std::optional<std::string> daily_factor_from_annual;
    std::optional<std::string> accumulated_factor;
};

// One row; `accumulated` is the factor accumulated through the day before the period (B3's
// rule, at kAccumulationDecimals; nullopt once a day without a rate was passed) and is
// advanced through the period's days.
CdiRow ServeCdiRow(const CdiData& cdi, const SeriesQuery& query, const PeriodSpan& period,
                   std::size_t range_begin, std::optional<Wide>& accumulated);

}  // namespace lastro::series
