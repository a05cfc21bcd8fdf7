#include "src/delinquency_bands.hpp"
#include "fidc_report_fixture.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <array>

namespace lastro::funds::testing {
namespace {

using ::testing::HasSubstr;
using BandValues = std::array<std::optional<double>, 10>;

boost::json::array JsonBands(const BandValues& bands) {
    boost::json::array out;
    for (const auto& value : bands) {
        out.push_back(value ? boost::json::value(*value) : boost::json::value(nullptr));
    }
    return out;
}

// One table of bands_json as the ingester writes it.
boost::json::object Table(const BandValues& delinquent) {
    const BandValues to_mature = {1000.0, 900.0, 800.0, 700.0, 600.0, 500.0, 400.0, 300.0, 200.0, 100.0};
    return {{"to_mature", JsonBands(to_mature)},  {"delinquent", JsonBands(delinquent)},
            {"prepaid", JsonBands(BandValues{})}, {"to_mature_total", 5500.0},
            {"delinquent_total", nullptr},        {"prepaid_total", nullptr}};
}

class DelinquencyBandsTest : public FidcReportTest {
protected:
    sdk::Result Bands(const std::string& month, const std::string& class_id = ClassIdFor("2001")) {
        return Run(&HandleClassDelinquencyBands, {{"class_id", class_id}, {"month", MonthOf(month)}});
    }
};

// The delinquent bands of `table` from the row's first band on, summed here with the rule the
// endpoint documents: null when any band is empty.
std::optional<double> Expected(const std::array<std::optional<double>, 10>& table, std::size_t first) {
    double sum = 0.0;
    for (std::size_t i = first; i < table.size(); ++i) {
        if (!table[i]) {
            return std::nullopt;
        }
        sum += *table[i];
    }
    return sum;
}

TEST_F(DelinquencyBandsTest, EachRowIsTheSumOfTheBandsAboveItsThreshold) {
    const std::array<std::optional<double>, 10> with_risk = {10.0, 20.0, 30.0, 0.0,  50.0,
                                                             60.0, 70.0, 80.0, 90.0, 100.0};
    const std::array<std::optional<double>, 10> without_risk = {1.0, 2.0, 3.0, 4.0, 5.0,
                                                                6.0, 7.0, 8.0, 9.0, 0.0};
    FidcReport report = MonthlyReport(kAlfaCnpj, "2025-05");
    report.bands_json =
        boost::json::serialize(boost::json::object{{"V", Table(with_risk)}, {"VI", Table(without_risk)}});
    report.band_denominator = 12000.0;
    AddReport(report);

    const sdk::Result result = Bands("2025-05");
    const auto& rows = result.data.as_array();
    ASSERT_EQ(rows.size(), 10u);
    const std::array<int, 10> thresholds = {0, 30, 60, 90, 120, 150, 180, 360, 720, 1080};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i].as_object();
        SCOPED_TRACE("row " + std::to_string(i));
        EXPECT_EQ(row.at("month").as_string(), "2025-05");
        EXPECT_EQ(row.at("overdue_days").as_int64(), thresholds[i]);
        const auto v = Expected(with_risk, i);
        const auto vi = Expected(without_risk, i);
        ASSERT_TRUE(v && vi);
        EXPECT_DOUBLE_EQ(row.at("with_risk_brl").to_number<double>(), *v);
        EXPECT_DOUBLE_EQ(row.at("without_risk_brl").to_number<double>(), *vi);
        const double delinquent = *v + *vi;
        EXPECT_DOUBLE_EQ(row.at("delinquent_brl").to_number<double>(), delinquent);
        EXPECT_DOUBLE_EQ(row.at("delinquent_partial_brl").to_number<double>(), delinquent);
        EXPECT_TRUE(row.at("delinquent_partial_missing").as_array().empty());
        EXPECT_DOUBLE_EQ(row.at("ratio_denominator_brl").to_number<double>(), 12000.0);
        EXPECT_DOUBLE_EQ(row.at("delinquent_ratio").to_number<double>(), delinquent / 12000.0);
    }
    // Spot checks written out: everything overdue, above 90 days, above 1080 days.
    EXPECT_DOUBLE_EQ(rows[0].at("delinquent_brl").to_number<double>(), 510.0 + 45.0);
    EXPECT_DOUBLE_EQ(rows[3].at("delinquent_brl").to_number<double>(), 450.0 + 39.0);
    EXPECT_DOUBLE_EQ(rows[9].at("delinquent_brl").to_number<double>(), 100.0);
    EXPECT_EQ(rows[9].at("without_risk_brl").to_number<double>(), 0.0);

    ExpectManifestShape("funds.class_delinquency_bands", result.data);
    ExpectSourcesForEveryField("funds.class_delinquency_bands", rows[0].as_object(), result.meta);
    const auto& definitions = result.meta.extra.at("receivables_definitions").as_object();
    for (const char* key : {"overdue_days", "cumulative", "ratio_denominator_brl", "delinquent_partial_brl",
                            "difference_from_table_i"}) {
        EXPECT_TRUE(definitions.contains(key)) << key;
    }
    EXPECT_THAT(std::string(definitions.at("cumulative").as_string()), HasSubstr("must not be summed"));
}

// Before issue 17 an empty band counted as nothing: row 0 was 25 + the others. Now a sum with an
// empty band is null, and the partial sum names the bands it leaves out.
TEST_F(DelinquencyBandsTest, ABandTotalIsNullWhenAnyBandIsEmpty) {
    const std::array<std::optional<double>, 10> with_risk = {10.0, 20.0, 30.0, std::nullopt, 50.0,
                                                             60.0, 70.0, 80.0, 90.0,         100.0};
    const std::array<std::optional<double>, 10> without_risk = {1.0, 2.0, 3.0, 4.0, 5.0,
                                                                6.0, 7.0, 8.0, 9.0, std::nullopt};
    FidcReport report = MonthlyReport(kAlfaCnpj, "2025-05");
    report.bands_json =
        boost::json::serialize(boost::json::object{{"V", Table(with_risk)}, {"VI", Table(without_risk)}});
    AddReport(report);

    const sdk::Result result = Bands("2025-05");
    const auto& rows = result.data.as_array();
    ASSERT_EQ(rows.size(), 10u);
    EXPECT_TRUE(rows[0].at("with_risk_brl").is_null());
    EXPECT_TRUE(rows[3].at("with_risk_brl").is_null());
    EXPECT_DOUBLE_EQ(rows[4].at("with_risk_brl").to_number<double>(), 450.0);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_TRUE(rows[i].at("without_risk_brl").is_null()) << i;  // b.10 of VI is empty
        EXPECT_TRUE(rows[i].at("delinquent_brl").is_null()) << i;
        EXPECT_TRUE(rows[i].at("delinquent_ratio").is_null()) << i;
    }
    EXPECT_DOUBLE_EQ(rows[0].at("delinquent_partial_brl").to_number<double>(), 510.0 + 45.0);
    EXPECT_EQ(rows[0].at("delinquent_partial_missing"),
              (boost::json::array{"TAB_V_B4_VL_INAD_120", "TAB_VI_B10_VL_INAD_MAIOR_1080"}));
    EXPECT_DOUBLE_EQ(rows[4].at("delinquent_partial_brl").to_number<double>(), 450.0 + 35.0);
    EXPECT_EQ(rows[4].at("delinquent_partial_missing"),
              (boost::json::array{"TAB_VI_B10_VL_INAD_MAIOR_1080"}));
}

TEST_F(DelinquencyBandsTest, ATableWithoutARowLeavesEveryBandOfItMissing) {
    // Table VI was not filed (a class without receivables of that kind may leave it empty).
    const std::array<std::optional<double>, 10> with_risk = {25.0, 0.0, 0.0, 0.0, 0.0,
                                                             0.0,  0.0, 0.0, 0.0, 0.1};
    FidcReport report = MonthlyReport(kAlfaCnpj, "2025-05");
    report.bands_json = boost::json::serialize(boost::json::object{{"V", Table(with_risk)}, {"VI", nullptr}});
    AddReport(report);

    const sdk::Result result = Bands("2025-05");
    const auto& rows = result.data.as_array();
    ASSERT_EQ(rows.size(), 10u);
    EXPECT_EQ(rows[0].at("with_risk_brl").to_number<double>(), 25.1);  // exact to the cent
    EXPECT_TRUE(rows[0].at("without_risk_brl").is_null());
    EXPECT_TRUE(rows[0].at("delinquent_brl").is_null());
    EXPECT_EQ(rows[0].at("delinquent_partial_brl").to_number<double>(), 25.1);
    EXPECT_EQ(rows[0].at("delinquent_partial_missing").as_array().size(), 10u);
    EXPECT_EQ(rows[0].at("delinquent_partial_missing").as_array().front(), "TAB_VI_B1_VL_INAD_30");
    EXPECT_TRUE(rows[0].at("ratio_denominator_brl").is_null());
    EXPECT_TRUE(rows[0].at("delinquent_ratio").is_null());
    EXPECT_EQ(rows[9].at("delinquent_partial_brl").to_number<double>(), 0.1);
    EXPECT_EQ(rows[9].at("delinquent_partial_missing"),
              (boost::json::array{"TAB_VI_B10_VL_INAD_MAIOR_1080"}));
}

TEST_F(DelinquencyBandsTest, AReportWithoutBandsGivesTenNullRows) {
    AddReport(MonthlyReport(kAlfaCnpj, "2025-05"));
    const sdk::Result result = Bands("2025-05");
    ASSERT_EQ(result.data.as_array().size(), 10u);
    for (const auto& row : result.data.as_array()) {
        EXPECT_TRUE(row.at("delinquent_brl").is_null());
        EXPECT_TRUE(row.at("delinquent_ratio").is_null());
    }
    ExpectManifestShape("funds.class_delinquency_bands", result.data);
}

TEST_F(DelinquencyBandsTest, AZeroDenominatorGivesANullRatio) {
    FidcReport report = MonthlyReport(kAlfaCnpj, "2025-05");
    const BandValues zeros = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    report.bands_json =
        boost::json::serialize(boost::json::object{{"V", Table(zeros)}, {"VI", Table(zeros)}});
    report.band_denominator = 0.0;
    AddReport(report);
    const sdk::Result result = Bands("2025-05");
    const auto& rows = result.data.as_array();
    EXPECT_DOUBLE_EQ(rows[0].at("delinquent_brl").to_number<double>(), 0.0);
    EXPECT_TRUE(rows[0].at("delinquent_ratio").is_null());
}

TEST_F(DelinquencyBandsTest, OnlyTheExactMonthIsServed) {
    AddReport(MonthlyReport(kAlfaCnpj, "2025-04"));
    AddReport(MonthlyReport(kAlfaCnpj, "2025-06"));
    try {
        Bands("2025-05");
        FAIL() << "expected NotFound";
    } catch (const sdk::NotFound& problem) {
        EXPECT_EQ(std::string(problem.what()),
                  "class " + ClassIdFor("2001") + " has no monthly report for 2025-05");
        EXPECT_EQ(problem.Parameter(), "month");
    }
    EXPECT_EQ(Bands("2025-06").data.as_array()[0].at("month").as_string(), "2025-06");
    EXPECT_EQ(Bands("2025-06").meta.as_of, "2025-06") << "the reference period is the month served";
    EXPECT_EQ(Bands("2025-04").meta.as_of, "2025-04");
    EXPECT_THROW(Bands("2025-05", "2b9c1d52-0000-5000-8000-000000000000"), sdk::NotFound);
}

}  // namespace
}  // namespace lastro::funds::testing
