#include "ingest/inf_mensal_fidc/fidc_metrics.hpp"

#include <lastro/sdk/serving/money.hpp>

#include <cmath>

namespace lastro::funds {

namespace {

std::optional<double> Abs(std::optional<double> value) {
    if (!value) {
        return std::nullopt;
    }
    return std::fabs(*value);
}

}  // namespace

std::optional<double> SumOfPublished(std::span<const std::optional<double>> components) {
    return sdk::SumOfAmounts(components);
}

std::optional<std::int64_t> SumOfPublished(std::span<const std::optional<std::int64_t>> components) {
    if (components.empty()) {
        return std::nullopt;
    }
    std::int64_t total = 0;
    for (const std::optional<std::int64_t>& component : components) {
        if (!component) {
            return std::nullopt;
        }
        total += *component;
    }
    return total;
}

std::optional<double> RatioOf(std::optional<double> numerator, std::optional<double> denominator) {
    if (!numerator || !denominator || *denominator == 0) {
        return std::nullopt;
    }
    return *numerator / *denominator;
}

std::optional<double> SeriesNavOf(std::optional<double> quota_count, std::optional<double> quota_value) {
    if (!quota_count || !quota_value) {
        return std::nullopt;
    }
    return sdk::RoundToCents(*quota_count * *quota_value);
}

void ApplyFidcMetrics(const FidcMetricInputs& in, FidcReport& report) {
    // Receivables and provisions (table I). PDD is published as a negative deduction by some
    // administrators and as a positive amount by others, hence the absolute values.
    report.receivables_components = SumOfPublished(in.receivable_components);
    report.pdd = sdk::SumOfAmounts({Abs(in.pdd_with_risk), Abs(in.pdd_without_risk)});
    report.receivables_net = sdk::SumOfAmounts({in.receivables_with_risk, in.receivables_without_risk});
    report.receivables_gross = sdk::SumOfAmounts({report.receivables_net, report.pdd});
    report.pdd_ratio = RatioOf(report.pdd, report.receivables_gross);

    // Delinquency (tables V and VI): the exclusive bands, never the published subtotals.
    report.delinquent_total = SumOfPublished(in.delinquent_bands);
    std::vector<std::optional<double>> denominator(in.to_mature_bands);
    denominator.insert(denominator.end(), in.delinquent_bands.begin(), in.delinquent_bands.end());
    report.band_denominator = SumOfPublished(denominator);
    report.delinquency_ratio = RatioOf(report.delinquent_total, report.band_denominator);

    // Quotas (X_1, X_2, X_3).
    std::vector<std::optional<double>> senior, mezzanine, subordinated, junior, all;
    std::vector<std::optional<std::int64_t>> investors;
    std::int64_t with_profitability = 0;
    for (const FidcSeriesFacts& series : in.series) {
        const std::optional<double> nav = SeriesNavOf(series.quota_count, series.quota_value);
        all.push_back(nav);
        if (series.seniority == "senior") {
            senior.push_back(nav);
        } else if (series.seniority == "mezzanine") {
            mezzanine.push_back(nav);
            junior.push_back(nav);
        } else if (series.seniority == "subordinated") {
            subordinated.push_back(nav);
            junior.push_back(nav);
        }
        investors.push_back(series.investor_count);
        if (series.profitability_pct) {
            ++with_profitability;
        }
    }
    report.senior_nav = SumOfPublished(senior);
    report.mezzanine_nav = SumOfPublished(mezzanine);
    report.subordinated_nav = SumOfPublished(subordinated);
    report.series_nav_total = SumOfPublished(all);
    report.subordination_with_mezzanine_ratio = RatioOf(SumOfPublished(junior), report.series_nav_total);
    report.subordination_without_mezzanine_ratio = RatioOf(report.subordinated_nav, report.series_nav_total);
    report.investor_count = SumOfPublished(investors);
    report.series_with_profitability_count = with_profitability;

    // Segments (table II).
    report.positive_segment_count.reset();
    report.primary_segment_code.reset();
    report.primary_segment_ratio.reset();
    if (in.has_segments) {
        std::int64_t positive = 0;
        std::optional<std::size_t> primary;
        for (std::size_t i = 0; i < in.segment_values.size(); ++i) {
            const std::optional<double>& value = in.segment_values[i];
            if (!value || *value <= 0) {
                continue;
            }
            ++positive;
            if (!primary || *value > *in.segment_values[*primary]) {
                primary = i;  // strictly larger: the first in table order wins a tie
            }
        }
        report.positive_segment_count = positive;
        if (primary) {
            report.primary_segment_code = std::string(FidcSegments()[*primary].code);
            report.primary_segment_ratio = RatioOf(in.segment_values[*primary], in.segments_total);
        }
    }
}

}  // namespace lastro::funds
