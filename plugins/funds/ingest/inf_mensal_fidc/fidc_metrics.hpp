// The derived metrics of a FIDC monthly report, computed once at ingest into FidcReport
// (docs/api/fidc-metrics.md states each formula). Three rules make every metric predictable:
// - a sum is NULL when any of its components is empty (missing is never taken as 0; a
//   published 0.00 is a value) or when it has no component;
// - a sum of money is exact to the cent (integer cents, sdk/serving/money.hpp), a product of
//   a quota count and a quota value is rounded to the cent;
// - a ratio is NULL when its numerator or denominator is NULL or the denominator is 0.
#pragma once

#include "domain/fidc/fidc_tables.hpp"
#include "funds_model.hxx"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace lastro::funds {

std::optional<double> SumOfPublished(std::span<const std::optional<double>> components);
std::optional<std::int64_t> SumOfPublished(std::span<const std::optional<std::int64_t>> components);
std::optional<double> RatioOf(std::optional<double> numerator, std::optional<double> denominator);
// QT x VL of a series rounded to the cent; NULL when either is NULL.
std::optional<double> SeriesNavOf(std::optional<double> quota_count, std::optional<double> quota_value);

// One series of the report (X_1, X_2, X_3 joined by series).
struct FidcSeriesFacts {
    std::string_view seniority;  // SeniorityOf(label)
    std::optional<std::int64_t> investor_count;
    std::optional<double> quota_count;
    std::optional<double> quota_value;
    std::optional<double> profitability_pct;
};

// The published inputs of the metrics; a table the report lacks leaves its inputs empty.
struct FidcMetricInputs {
    // Table I.
    std::optional<double> receivables_with_risk;               // I2A
    std::optional<double> receivables_without_risk;            // I2B
    std::optional<double> pdd_with_risk;                       // I2A11
    std::optional<double> pdd_without_risk;                    // I2B11
    std::vector<std::optional<double>> receivable_components;  // I2A1..I2A10, I2B1..I2B10
    // Tables V and VI: the ten exclusive to-mature (A1..A10) and delinquent (B1..B10) bands of
    // each table, empty (nullopt) for a table the report has no row for.
    std::vector<std::optional<double>> to_mature_bands;
    std::vector<std::optional<double>> delinquent_bands;
    // Table II.
    bool has_segments = false;  // the report has a table II row
    std::optional<double> segments_total;
    std::array<std::optional<double>, kFidcSegmentCount> segment_values{};
    // X_1, X_2, X_3.
    std::vector<FidcSeriesFacts> series;
};

// Sets receivables_components and every derived metric of `report` from `inputs`.
void ApplyFidcMetrics(const FidcMetricInputs& inputs, FidcReport& report);

}  // namespace lastro::funds
