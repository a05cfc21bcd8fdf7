// Every formula of docs/api/fidc-metrics.md on hand-computed examples, and the rules that keep
// missing values missing and money exact.
#include "ingest/inf_mensal_fidc/fidc_metrics.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace lastro::funds {
namespace {

using Values = std::vector<std::optional<double>>;

TEST(FidcMetricRules, ASumIsNullWhenAnyComponentIsEmpty) {
    EXPECT_FALSE(SumOfPublished(Values{}).has_value());
    EXPECT_FALSE(SumOfPublished(Values{std::nullopt, std::nullopt}).has_value());
    EXPECT_FALSE(SumOfPublished(Values{1.5, std::nullopt, 2.0}).has_value());
    EXPECT_EQ(SumOfPublished(Values{1.5, 2.0}), 3.5);
    EXPECT_EQ(SumOfPublished(Values{0.0}), 0.0);  // a published zero is a value
    EXPECT_FALSE(SumOfPublished(std::vector<std::optional<std::int64_t>>{std::nullopt, 3, 4}).has_value());
    EXPECT_EQ(SumOfPublished(std::vector<std::optional<std::int64_t>>{0, 3, 4}), 7);
    EXPECT_FALSE(SumOfPublished(std::vector<std::optional<std::int64_t>>{}).has_value());
}

TEST(FidcMetricRules, SumsOfMoneyAreExactToTheCent) {
    // Real table I values (I2A + I2B of one 2023-12 report): their float sum is 7553093.670000001.
    EXPECT_NE(5826.69 + 7547266.98, 7553093.67);
    EXPECT_EQ(SumOfPublished(Values{5826.69, 7547266.98}), 7553093.67);
    EXPECT_EQ(SumOfPublished(Values{995128.26, 46026147.83}), 47021276.09);
}

TEST(FidcMetricRules, ARatioIsNullWithoutBothSidesOrWithAZeroDenominator) {
    EXPECT_EQ(RatioOf(1.0, 4.0), 0.25);
    EXPECT_FALSE(RatioOf(1.0, 0.0).has_value());
    EXPECT_FALSE(RatioOf(std::nullopt, 4.0).has_value());
    EXPECT_FALSE(RatioOf(1.0, std::nullopt).has_value());
    EXPECT_EQ(RatioOf(0.0, 4.0), 0.0);
}

TEST(FidcMetricRules, SeriesNavIsQuotasTimesQuotaValue) {
    EXPECT_EQ(SeriesNavOf(1000.0, 700.0), 700000.0);
    EXPECT_EQ(SeriesNavOf(3.0, 1000.123), 3000.37);  // rounded to the cent
    EXPECT_FALSE(SeriesNavOf(std::nullopt, 700.0).has_value());
    EXPECT_FALSE(SeriesNavOf(1000.0, std::nullopt).has_value());
}

// The numbers of StandardFiling (fidc_test_files.hpp).
FidcMetricInputs Standard() {
    FidcMetricInputs in;
    in.receivables_with_risk = 800000.0;
    in.receivables_without_risk = 100000.0;
    in.pdd_with_risk = -50000.0;
    in.pdd_without_risk = 10000.0;
    in.receivable_components = {700000.0, 110000.0, 100000.0, 0.0, 50000.0};
    in.receivable_components.resize(20, 0.0);  // the other components published as 0.00
    in.to_mature_bands = Values(20, 0.0);
    in.delinquent_bands = Values(20, 0.0);
    in.to_mature_bands[0] = 400000.0;   // V A1
    in.to_mature_bands[1] = 200000.0;   // V A2
    in.to_mature_bands[9] = 100000.0;   // V A10
    in.to_mature_bands[10] = 90000.0;   // VI A1
    in.delinquent_bands[0] = 30000.0;   // V B1
    in.delinquent_bands[2] = 20000.0;   // V B3
    in.delinquent_bands[11] = 10000.0;  // VI B2
    in.has_segments = true;
    in.segments_total = 900000.0;
    in.segment_values[0] = 100000.0;   // A industrial
    in.segment_values[3] = 300000.0;   // C2 retail
    in.segment_values[11] = 300000.0;  // F2 payroll_loans
    in.segment_values[18] = 200000.0;  // G credit_cards
    in.segment_values[26] = 0.0;       // K trademarks
    in.series = {{"senior", 120, 1000.0, 700.0, 1.15},
                 {"mezzanine", 3, 100.0, 1000.0, 1.50},
                 {"subordinated", 1, 50.0, 3900.0, std::nullopt}};
    return in;
}

TEST(FidcMetrics, ReceivablesAndProvisions) {
    FidcReport report;
    ApplyFidcMetrics(Standard(), report);
    EXPECT_EQ(report.receivables_components, 960000.0);  // 700000 + 110000 + 100000 + 50000
    EXPECT_EQ(report.pdd, 60000.0);                      // |-50000| + |10000|
    EXPECT_EQ(report.receivables_net, 900000.0);         // 800000 + 100000
    EXPECT_EQ(report.receivables_gross, 960000.0);       // 900000 + 60000
    EXPECT_DOUBLE_EQ(*report.pdd_ratio, 0.0625);         // 60000 / 960000
}

TEST(FidcMetrics, DelinquencyUsesTheExclusiveBands) {
    FidcReport report;
    ApplyFidcMetrics(Standard(), report);
    EXPECT_EQ(report.delinquent_total, 60000.0);   // 30000 + 20000 + 10000
    EXPECT_EQ(report.band_denominator, 850000.0);  // 400000 + 200000 + 100000 + 90000 + 60000
    EXPECT_DOUBLE_EQ(*report.delinquency_ratio, 60000.0 / 850000.0);
}

TEST(FidcMetrics, QuotasBySeniority) {
    FidcReport report;
    ApplyFidcMetrics(Standard(), report);
    EXPECT_EQ(report.senior_nav, 700000.0);
    EXPECT_EQ(report.mezzanine_nav, 100000.0);
    EXPECT_EQ(report.subordinated_nav, 195000.0);
    EXPECT_EQ(report.series_nav_total, 995000.0);
    EXPECT_DOUBLE_EQ(*report.subordination_with_mezzanine_ratio, 295000.0 / 995000.0);
    EXPECT_DOUBLE_EQ(*report.subordination_without_mezzanine_ratio, 195000.0 / 995000.0);
    EXPECT_EQ(report.investor_count, 124);
    EXPECT_EQ(report.series_with_profitability_count, 2);
}

TEST(FidcMetrics, SegmentsFirstLargestWinsATie) {
    FidcReport report;
    ApplyFidcMetrics(Standard(), report);
    EXPECT_EQ(report.positive_segment_count, 4);  // A, C2, F2, G; K is 0
    EXPECT_EQ(report.primary_segment_code, "retail");
    EXPECT_DOUBLE_EQ(*report.primary_segment_ratio, 300000.0 / 900000.0);
}

TEST(FidcMetrics, MissingInputsGiveNullNeverZero) {
    FidcReport report;
    ApplyFidcMetrics(FidcMetricInputs{}, report);
    EXPECT_FALSE(report.receivables_components);
    EXPECT_FALSE(report.pdd);
    EXPECT_FALSE(report.receivables_net);
    EXPECT_FALSE(report.receivables_gross);
    EXPECT_FALSE(report.pdd_ratio);
    EXPECT_FALSE(report.delinquent_total);
    EXPECT_FALSE(report.band_denominator);
    EXPECT_FALSE(report.delinquency_ratio);
    EXPECT_FALSE(report.senior_nav);
    EXPECT_FALSE(report.mezzanine_nav);
    EXPECT_FALSE(report.subordinated_nav);
    EXPECT_FALSE(report.series_nav_total);
    EXPECT_FALSE(report.subordination_with_mezzanine_ratio);
    EXPECT_FALSE(report.subordination_without_mezzanine_ratio);
    EXPECT_FALSE(report.investor_count);
    EXPECT_FALSE(report.positive_segment_count);  // no table II row
    EXPECT_FALSE(report.primary_segment_code);
    EXPECT_FALSE(report.primary_segment_ratio);
    EXPECT_EQ(report.series_with_profitability_count, 0);
}

// One empty component makes its sum null (contract 2.1): before the rule changed, the sums kept
// the components present (an empty I2A11 gave the PDD of I2B11 alone, and with I2B11 = 0 a PDD
// of 0).
TEST(FidcMetrics, AnEmptyComponentMakesItsSumAndItsRatiosNull) {
    FidcMetricInputs in;
    in.receivables_with_risk = 500.0;  // I2B empty
    in.pdd_without_risk = 0.0;         // I2A11 empty, I2B11 = 0.00
    in.receivable_components = {1.0, std::nullopt};
    in.delinquent_bands = {std::nullopt, 5.0};
    in.to_mature_bands = {0.0, 0.0};
    in.has_segments = true;  // a table II row with every segment empty or not positive
    in.segment_values[2] = -10.0;
    in.series = {{"senior", std::nullopt, 10.0, std::nullopt, std::nullopt},
                 {"unknown", 7, 2.0, 3.0, 0.0},
                 {"subordinated", std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
    FidcReport report;
    ApplyFidcMetrics(in, report);
    EXPECT_FALSE(report.receivables_net);
    EXPECT_FALSE(report.pdd);  // not 0
    EXPECT_FALSE(report.receivables_gross);
    EXPECT_FALSE(report.pdd_ratio);  // not 0
    EXPECT_FALSE(report.receivables_components);
    EXPECT_FALSE(report.delinquent_total);
    EXPECT_FALSE(report.band_denominator);
    EXPECT_FALSE(report.delinquency_ratio);
    EXPECT_EQ(report.positive_segment_count, 0);
    EXPECT_FALSE(report.primary_segment_code);
    EXPECT_FALSE(report.senior_nav);        // its only series lacks VL
    EXPECT_FALSE(report.subordinated_nav);  // likewise
    EXPECT_FALSE(report.mezzanine_nav);     // no mezzanine series at all
    EXPECT_FALSE(report.series_nav_total);  // two of three series lack a NAV
    EXPECT_FALSE(report.investor_count);    // two of three series lack a count: not 7
    EXPECT_FALSE(report.subordination_with_mezzanine_ratio);
    EXPECT_FALSE(report.subordination_without_mezzanine_ratio);
    EXPECT_EQ(report.series_with_profitability_count, 1);  // 0.0 is a published value
}

TEST(FidcMetrics, PublishedZerosAreValues) {
    FidcMetricInputs in;
    in.receivables_with_risk = 500.0;
    in.receivables_without_risk = 0.0;
    in.pdd_with_risk = 0.0;
    in.pdd_without_risk = 0.0;
    in.delinquent_bands = {0.0, 5.0};
    in.to_mature_bands = {0.0, 95.0};
    in.series = {{"senior", 7, 2.0, 3.0, std::nullopt}, {"subordinated", 0, 1.0, 4.0, std::nullopt}};
    FidcReport report;
    ApplyFidcMetrics(in, report);
    EXPECT_EQ(report.receivables_net, 500.0);
    EXPECT_EQ(report.pdd, 0.0);
    EXPECT_EQ(report.receivables_gross, 500.0);
    EXPECT_EQ(report.pdd_ratio, 0.0);
    EXPECT_EQ(report.delinquent_total, 5.0);
    EXPECT_EQ(report.band_denominator, 100.0);
    EXPECT_EQ(report.delinquency_ratio, 0.05);
    EXPECT_EQ(report.series_nav_total, 10.0);
    EXPECT_FALSE(report.mezzanine_nav);  // no such series
    EXPECT_EQ(report.subordination_with_mezzanine_ratio, 0.4);
    EXPECT_EQ(report.investor_count, 7);
}

TEST(FidcMetrics, AReportWithoutJuniorSeriesHasNoSubordination) {
    FidcMetricInputs in;
    in.series = {{"senior", 7, 2.0, 3.0, std::nullopt}};
    FidcReport report;
    ApplyFidcMetrics(in, report);
    EXPECT_EQ(report.series_nav_total, 6.0);
    EXPECT_FALSE(report.subordination_with_mezzanine_ratio);
    EXPECT_FALSE(report.subordination_without_mezzanine_ratio);
}

TEST(FidcMetrics, GrossNeedsBothNetAndProvision) {
    FidcMetricInputs in;
    in.receivables_with_risk = 500.0;
    in.receivables_without_risk = 0.0;
    FidcReport report;
    ApplyFidcMetrics(in, report);
    EXPECT_EQ(report.receivables_net, 500.0);
    EXPECT_FALSE(report.pdd);
    EXPECT_FALSE(report.receivables_gross);
    EXPECT_FALSE(report.pdd_ratio);
}

}  // namespace
}  // namespace lastro::funds
