#include "domain/cdi.hpp"

#include <cmath>

namespace lastro::series {
namespace {

// growth (a factor at kAccumulationDecimals) as Real.
Real RealOfFactor(const Wide& factor) {
    return RealOf(FormatScaled(factor, kAccumulationDecimals));
}

}  // namespace

std::string DailyFactorFromAnnual(std::string_view annual_percent_text) {
    using boost::multiprecision::cpp_int;
    const Scaled annual = ScaledOf(annual_percent_text);
    // growth = numerator / denominator exactly: 1 + annual/100.
    const cpp_int denominator = cpp_int(PowerOfTen(annual.scale + 2));
    const cpp_int numerator = denominator + cpp_int(annual.units);
    const long double growth = numerator.convert_to<long double>() / denominator.convert_to<long double>();
    const long double scaled = std::pow(growth, 1.0L / 252.0L) * 1e8L;
    const long double whole = std::floor(scaled);
    cpp_int units = cpp_int(static_cast<long long>(whole));
    bool up = scaled - whole >= 0.5L;
    if (std::fabs(scaled - whole - 0.5L) < 1e-6L) {
        // Near a tie: the factor rounds up exactly when growth >= ((2 units + 1) / (2e8))^252.
        const cpp_int boundary = 2 * units + 1;
        const cpp_int scale = cpp_int(200000000);
        up = numerator * boost::multiprecision::pow(scale, 252) >=
             denominator * boost::multiprecision::pow(boundary, 252);
    }
    if (up) {
        units += 1;
    }
    return FormatScaled(Wide(units), 8);
}

std::optional<Wide> DailyFactor(std::string_view daily_percent_text) {
    const Scaled rate = ScaledOf(daily_percent_text);
    if (rate.scale + 2 > kAccumulationDecimals) {
        return std::nullopt;
    }
    // rate% = units / 10^scale percent = units / 10^(scale + 2) of one.
    return PowerOfTen(kAccumulationDecimals) +
           rate.units * PowerOfTen(kAccumulationDecimals - rate.scale - 2);
}

Wide AccumulateTruncated(const Wide& accumulated, const Wide& factor) {
    // Both positive (a rate above -100 %): integer division truncates toward zero.
    return accumulated * factor / PowerOfTen(kAccumulationDecimals);
}

Wide OneAccumulated() {
    return PowerOfTen(kAccumulationDecimals);
}

CdiData::CdiData(std::shared_ptr<const SeriesData> daily, std::shared_ptr<const SeriesData> annual)
    : daily_(std::move(daily)) {
    const std::size_t days = daily_->Size();
    annual_.resize(days);
    factors_.resize(days);
    factor_texts_.resize(days);
    from_annual_.resize(days);
    for (std::size_t i = 0; i < days; ++i) {
        const Observation& day = daily_->Observations()[i];
        if (day.value) {
            factors_[i] = DailyFactor(*day.value);
            if (factors_[i]) {
                // As many decimals as the rate has, plus the two of a percentage: B3's 8.
                const int decimals = DecimalsOf(*day.value) + 2;
                factor_texts_[i] =
                    FormatScaled(*factors_[i] / PowerOfTen(kAccumulationDecimals - decimals), decimals);
            }
        }
        if (annual) {
            const std::size_t j = annual->LowerBound(day.date);
            if (j < annual->Size() && annual->DateAt(j) == day.date && annual->Observations()[j].value) {
                annual_[i] = annual->Observations()[j].value;
                from_annual_[i] = DailyFactorFromAnnual(*annual_[i]);
            }
        }
    }
}

CdiRow ServeCdiRow(const CdiData& cdi, const SeriesQuery& query, const PeriodSpan& period,
                   std::size_t range_begin, std::optional<Wide>& accumulated) {
    const SeriesData& daily = cdi.Daily();
    CdiRow row;
    row.base = ServeRow(daily, query, period, range_begin);
    const bool single_day = query.frequency == Frequency::kDaily;
    // The period's own factor (a day's is its published one) and the running one, both by
    // B3's truncated product.
    std::optional<Wide> period_factor = single_day ? std::nullopt : std::optional<Wide>(OneAccumulated());
    for (std::size_t i = period.begin; i < period.end; ++i) {
        const std::optional<Wide>& factor = cdi.FactorAt(i);
        if (!factor) {
            period_factor.reset();
            accumulated.reset();
            continue;
        }
        if (period_factor) {
            period_factor = AccumulateTruncated(*period_factor, *factor);
        }
        if (accumulated) {
            accumulated = AccumulateTruncated(*accumulated, *factor);
        }
    }
    if (single_day) {
        const std::size_t i = period.begin;
        row.annual_rate_pct = cdi.AnnualAt(i);
        row.rate_pct = daily.Observations()[i].value;
        row.factor = cdi.FactorTextAt(i);
        row.daily_factor_from_annual = cdi.FactorFromAnnualAt(i);
    } else if (period_factor) {
        const Real growth = RealOfFactor(*period_factor);
        row.rate_pct = PercentOfGrowth(growth);
        row.factor = FormatScaled(*period_factor, kAccumulationDecimals);
        const long double days = static_cast<long double>(period.end - period.begin);
        row.annual_rate_pct = PercentOfGrowth(Power(growth, 252.0L / days));
    }
    if (accumulated) {
        row.accumulated_factor = FormatScaled(*accumulated, kAccumulationDecimals);
    }
    switch (query.transform) {
        case Transform::kNone:
            row.base.value = row.rate_pct;
            break;
        case Transform::kAccumulated:
            row.base.value = accumulated
                                 ? std::optional<std::string>(PercentOfGrowth(RealOfFactor(*accumulated)))
                                 : std::nullopt;
            break;
        case Transform::kAccumulated12m:
        case Transform::kAnnualized:
            break;  // ServeRow's exact compounding of SGS 12 (docs/cdi.md)
    }
    return row;
}

}  // namespace lastro::series
