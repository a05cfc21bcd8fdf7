#include "src/snapshot.hpp"
#include "fidc_report_fixture.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace lastro::funds::testing {
namespace {

using ::testing::HasSubstr;

// A report of class 2001 with every number the snapshot reads.
FidcReport FullReport(const std::string& month, double nav, std::int64_t investors, double delinquency,
                      double subordination) {
    FidcReport report = MonthlyReport(kAlfaCnpj, month);
    report.nav = nav;
    report.investor_count = investors;
    report.delinquency_ratio = delinquency;
    report.subordination_with_mezzanine_ratio = subordination;
    report.subordination_without_mezzanine_ratio = subordination / 2;
    report.receivables_with_risk = 700.0;
    report.receivables_without_risk = 200.0;
    report.receivables_net = 900.0;
    report.pdd = 100.0;
    report.receivables_gross = 1000.0;
    report.receivables_components = 1010.5;
    report.pdd_ratio = 0.1;
    report.positive_segment_count = 3;
    report.series_with_profitability_count = 2;
    return report;
}

class SnapshotTest : public FidcReportTest {
protected:
    sdk::Result Snapshot(std::optional<std::string> month = std::nullopt,
                         const std::string& class_id = ClassIdFor("2001")) {
        std::vector<Param> params{{"class_id", class_id}};
        if (month) {
            params.push_back({"month", MonthOf(*month)});
        }
        return Run(&HandleClassSnapshot, params);
    }
};

TEST_F(SnapshotTest, ComparesTheMonthWithThePreviousCalendarMonth) {
    AddReport(FullReport("2025-04", 1000.0, 40, 0.05, 0.30));
    AddReport(FullReport("2025-05", 1100.0, 42, 0.07, 0.28));

    const sdk::Result result = Snapshot("2025-05");
    const auto& data = result.data.as_object();
    EXPECT_EQ(data.at("class_id").as_string(), ClassIdFor("2001"));
    EXPECT_EQ(data.at("month").as_string(), "2025-05");
    EXPECT_EQ(data.at("previous_month").as_string(), "2025-04");
    EXPECT_DOUBLE_EQ(data.at("nav_brl").as_double(), 1100.0);
    EXPECT_DOUBLE_EQ(data.at("nav_previous_brl").as_double(), 1000.0);
    EXPECT_DOUBLE_EQ(data.at("nav_variation_ratio").as_double(), 1100.0 / 1000.0 - 1.0);
    EXPECT_EQ(data.at("investor_count").as_int64(), 42);
    EXPECT_EQ(data.at("investor_count_previous").as_int64(), 40);
    EXPECT_EQ(data.at("investor_count_delta").as_int64(), 2);
    EXPECT_DOUBLE_EQ(data.at("delinquency_ratio").as_double(), 0.07);
    EXPECT_DOUBLE_EQ(data.at("delinquency_previous_ratio").as_double(), 0.05);
    EXPECT_DOUBLE_EQ(data.at("delinquency_variation_pp").as_double(), (0.07 - 0.05) * 100);
    EXPECT_DOUBLE_EQ(data.at("pdd_brl").as_double(), 100.0);
    EXPECT_DOUBLE_EQ(data.at("pdd_ratio").as_double(), 0.1);
    EXPECT_DOUBLE_EQ(data.at("subordination_with_mezzanine_ratio").as_double(), 0.28);
    EXPECT_DOUBLE_EQ(data.at("subordination_without_mezzanine_ratio").as_double(), 0.14);
    EXPECT_DOUBLE_EQ(data.at("subordination_previous_ratio").as_double(), 0.30);
    EXPECT_DOUBLE_EQ(data.at("subordination_variation_pp").as_double(), (0.28 - 0.30) * 100);
    EXPECT_DOUBLE_EQ(data.at("receivables_brl").as_double(), 1000.0);
    EXPECT_EQ(data.at("positive_segment_count").as_int64(), 3);
    EXPECT_EQ(data.at("series_with_profitability_count").as_int64(), 2);

    const auto& receivables = data.at("receivables").as_object();
    EXPECT_DOUBLE_EQ(receivables.at("gross_brl").as_double(), 1000.0);
    EXPECT_DOUBLE_EQ(receivables.at("reported_net_brl").as_double(), 900.0);
    EXPECT_DOUBLE_EQ(receivables.at("pdd_brl").as_double(), 100.0);
    EXPECT_DOUBLE_EQ(receivables.at("with_risk_net_brl").as_double(), 700.0);
    EXPECT_DOUBLE_EQ(receivables.at("without_risk_net_brl").as_double(), 200.0);
    EXPECT_DOUBLE_EQ(receivables.at("components_brl").as_double(), 1010.5);
    const auto& reconciliation = receivables.at("reconciliation").as_object();
    EXPECT_DOUBLE_EQ(reconciliation.at("net_plus_pdd_brl").as_double(), 1000.0);
    EXPECT_DOUBLE_EQ(reconciliation.at("gross_brl").as_double(), 1000.0);
    EXPECT_EQ(reconciliation.at("difference_brl").as_double(), 0.0);
    EXPECT_DOUBLE_EQ(reconciliation.at("components_minus_gross_brl").as_double(), 10.5);

    ExpectManifestShape("funds.class_snapshot", result.data);
    ExpectSourcesForEveryField("funds.class_snapshot", data, result.meta);
    EXPECT_EQ(result.meta.extra.at("month_selection").as_string(), "requested");
    const auto& by_month = result.meta.extra.at("receivables_by_month").as_array();
    ASSERT_EQ(by_month.size(), 2u);
    EXPECT_EQ(by_month[0].at("month").as_string(), "2025-05");
    EXPECT_EQ(by_month[1].at("month").as_string(), "2025-04");
    EXPECT_DOUBLE_EQ(by_month[1].at("gross_brl").as_double(), 1000.0);
    EXPECT_DOUBLE_EQ(by_month[1].at("reported_net_brl").as_double(), 900.0);
    EXPECT_DOUBLE_EQ(by_month[1].at("pdd_brl").as_double(), 100.0);
    const auto& definitions = result.meta.extra.at("receivables_definitions").as_object();
    EXPECT_THAT(std::string(definitions.at("reported_net_brl").as_string()),
                HasSubstr("TAB_I2A_VL_DIRCRED_RISCO"));
    EXPECT_THAT(std::string(definitions.at("pdd_brl").as_string()), HasSubstr("TAB_I2A11_VL_REDUCAO_RECUP"));
}

TEST_F(SnapshotTest, AnOlderMonthNeverStandsInForAMissingPreviousMonth) {
    AddReport(FullReport("2025-03", 1000.0, 40, 0.05, 0.30));
    AddReport(FullReport("2025-05", 1100.0, 42, 0.07, 0.28));

    const sdk::Result result = Snapshot("2025-05");
    const auto& data = result.data.as_object();
    EXPECT_EQ(data.at("previous_month").as_string(), "2025-04");
    for (const char* field :
         {"nav_previous_brl", "nav_variation_ratio", "investor_count_previous", "investor_count_delta",
          "delinquency_previous_ratio", "delinquency_variation_pp", "subordination_previous_ratio",
          "subordination_variation_pp"}) {
        EXPECT_TRUE(data.at(field).is_null()) << field;
    }
    EXPECT_DOUBLE_EQ(data.at("nav_brl").as_double(), 1100.0);
    const auto& previous = result.meta.extra.at("receivables_by_month").as_array()[1].as_object();
    EXPECT_EQ(previous.at("month").as_string(), "2025-04");
    EXPECT_TRUE(previous.at("gross_brl").is_null());
    EXPECT_TRUE(previous.at("reported_net_brl").is_null());
    EXPECT_TRUE(previous.at("pdd_brl").is_null());
    ExpectManifestShape("funds.class_snapshot", result.data);
}

TEST_F(SnapshotTest, WithoutAMonthTheLatestReportedMonthIsUsed) {
    AddReport(FullReport("2024-12", 900.0, 39, 0.04, 0.31));
    AddReport(FullReport("2025-01", 1000.0, 40, 0.05, 0.30));
    AddReport(FullReport("2024-11", 800.0, 38, 0.03, 0.32));

    const sdk::Result result = Snapshot();
    const auto& data = result.data.as_object();
    EXPECT_EQ(data.at("month").as_string(), "2025-01");
    EXPECT_EQ(data.at("previous_month").as_string(), "2024-12");
    EXPECT_DOUBLE_EQ(data.at("nav_previous_brl").as_double(), 900.0);
    EXPECT_EQ(result.meta.extra.at("month_selection").as_string(), "latest_reported");
    EXPECT_EQ(result.meta.as_of, "2025-01") << "the reference period is the month served";
    EXPECT_EQ(Snapshot("2024-12").meta.as_of, "2024-12");
}

TEST_F(SnapshotTest, TheLatestMonthOfAnOnlyClassCountsBothItsCnpjs) {
    // Class 2003 files under its own CNPJ from 2025-05 and under its fund's before; in 2025-05
    // both filed and the class's own report wins.
    FidcReport april = MonthlyReport(kGamaFundCnpj, "2025-04");
    april.nav = 10.0;
    AddReport(april);
    FidcReport may_fund = MonthlyReport(kGamaFundCnpj, "2025-05");
    may_fund.nav = 20.0;
    AddReport(may_fund);
    FidcReport may_class = MonthlyReport(kGamaClassCnpj, "2025-05");
    may_class.nav = 21.0;
    AddReport(may_class);

    const sdk::Result result = Snapshot(std::nullopt, ClassIdFor("2003"));
    const auto& data = result.data.as_object();
    EXPECT_EQ(data.at("month").as_string(), "2025-05");
    EXPECT_DOUBLE_EQ(data.at("nav_brl").as_double(), 21.0);
    EXPECT_DOUBLE_EQ(data.at("nav_previous_brl").as_double(), 10.0);
    EXPECT_DOUBLE_EQ(Snapshot("2025-05", ClassIdFor("2003")).data.at("nav_brl").as_double(), 21.0);
}

TEST_F(SnapshotTest, AnUnreportedMonthOrClassIsNotFound) {
    AddReport(FullReport("2025-04", 1000.0, 40, 0.05, 0.30));
    AddReport(FullReport("2025-06", 1000.0, 40, 0.05, 0.30));
    try {
        Snapshot("2025-05");
        FAIL() << "expected NotFound";
    } catch (const sdk::NotFound& problem) {
        EXPECT_EQ(std::string(problem.what()),
                  "class " + ClassIdFor("2001") + " has no monthly report for 2025-05");
        EXPECT_EQ(problem.Parameter(), "month");
    }
    EXPECT_THROW(Snapshot(std::nullopt, ClassIdFor("2002")), sdk::NotFound);
    EXPECT_THROW(Snapshot(std::nullopt, "2b9c1d52-0000-5000-8000-000000000000"), sdk::NotFound);
}

TEST_F(SnapshotTest, MissingInputsGiveNullsNeverZeros) {
    AddReport(MonthlyReport(kAlfaCnpj, "2025-04"));
    AddReport(MonthlyReport(kAlfaCnpj, "2025-05"));

    const sdk::Result result = Snapshot("2025-05");
    const auto& data = result.data.as_object();
    for (const auto& member : data) {
        if (member.key() == "class_id" || member.key() == "month" || member.key() == "previous_month" ||
            member.key() == "receivables" || member.key() == "series_reporting" ||
            member.key() == "series_total" || member.key() == "pdd_partial_missing") {
            continue;
        }
        EXPECT_TRUE(member.value().is_null()) << member.key();
    }
    EXPECT_EQ(data.at("series_reporting").as_int64(), 0);
    EXPECT_EQ(data.at("series_total").as_int64(), 0);
    EXPECT_EQ(data.at("pdd_partial_missing"),
              (boost::json::array{"TAB_I2A11_VL_REDUCAO_RECUP", "TAB_I2B11_VL_REDUCAO_RECUP"}));
    const auto& receivables = data.at("receivables").as_object();
    for (const auto& member : receivables) {
        if (member.key() != "reconciliation" && member.key() != "components_partial_missing") {
            EXPECT_TRUE(member.value().is_null()) << member.key();
        }
    }
    EXPECT_EQ(receivables.at("components_partial_missing").as_array().size(), 20u);
    for (const auto& member : receivables.at("reconciliation").as_object()) {
        EXPECT_TRUE(member.value().is_null()) << member.key();
    }
    ExpectManifestShape("funds.class_snapshot", result.data);
}

TEST_F(SnapshotTest, AZeroPreviousNavHasNoVariation) {
    FidcReport april = FullReport("2025-04", 0.0, 0, 0.0, 0.0);
    AddReport(april);
    AddReport(FullReport("2025-05", 100.0, 3, 0.01, 0.2));
    const sdk::Result result = Snapshot("2025-05");
    EXPECT_TRUE(result.data.at("nav_variation_ratio").is_null());
    EXPECT_EQ(result.data.at("investor_count_delta").as_int64(), 3);
    EXPECT_DOUBLE_EQ(result.data.at("delinquency_variation_pp").as_double(), 1.0);
}

TEST_F(SnapshotTest, AnInconsistentGrossShowsInTheReconciliation) {
    FidcReport report = FullReport("2025-05", 1.0, 1, 0.0, 0.0);
    report.receivables_gross = 1000.25;  // not net + pdd (900 + 100)
    AddReport(report);
    const sdk::Result result = Snapshot("2025-05");
    const auto& reconciliation = result.data.at("receivables").at("reconciliation").as_object();
    EXPECT_DOUBLE_EQ(reconciliation.at("difference_brl").as_double(), 0.25);
    EXPECT_DOUBLE_EQ(reconciliation.at("components_minus_gross_brl").as_double(), 10.25);
}

// An empty part of a sum: the sum is null (not the other parts), and the snapshot serves the
// parts present apart, with what they leave out.
TEST_F(SnapshotTest, AnEmptyPartMakesTheSumNullAndThePartialSumNamesWhatItLeavesOut) {
    FidcReport april = AddReport(FullReport("2025-04", 1000.0, 40, 0.05, 0.30));
    AddSeries(april, QuotaSeries("Classe Sênior", 10.0, 1.0));
    FidcReport may = FullReport("2025-05", 1100.0, 42, 0.07, 0.28);
    may.pdd_with_risk = std::nullopt;  // TAB_I2A11 empty
    may.pdd_without_risk = -0.0;       // TAB_I2B11 published as -0.00
    may.pdd = std::nullopt;
    may.receivables_gross = std::nullopt;
    may.pdd_ratio = std::nullopt;
    may.investor_count = std::nullopt;  // one series left its count empty
    may.receivables_components = std::nullopt;
    may.published_json =
        R"({"I":{"TAB_I2A1_VL_CRED_VENC_AD":"1337255484.40","TAB_I2A2_VL_CRED_VENC_INAD":"0.20",)"
        R"("TAB_I2A3_VL_CRED_INAD":"0.00","TAB_I2A4_VL_CRED_DIRCRED_PERFM":"0.00",)"
        R"("TAB_I2A5_VL_CRED_VENCIDO_PENDENTE":"0.00","TAB_I2A6_VL_CRED_EMP_RECUP":"0.00",)"
        R"("TAB_I2A7_VL_CRED_RECEITA_PUBLICA":"0.00","TAB_I2A8_VL_CRED_ACAO_JUDIC":"0.00",)"
        R"("TAB_I2A9_VL_CRED_FATOR_RISCO":"0.00","TAB_I2B1_VL_CRED_VENC_AD":"0.00",)"
        R"("TAB_I2B2_VL_CRED_VENC_INAD":"0.00","TAB_I2B3_VL_CRED_INAD":"0.00",)"
        R"("TAB_I2B4_VL_CRED_DIRCRED_PERFM":"0.00","TAB_I2B5_VL_CRED_VENCIDO_PENDENTE":"0.00",)"
        R"("TAB_I2B6_VL_CRED_EMP_RECUP":"0.00","TAB_I2B7_VL_CRED_RECEITA_PUBLICA":"0.00",)"
        R"("TAB_I2B8_VL_CRED_ACAO_JUDIC":"0.00","TAB_I2B9_VL_CRED_FATOR_RISCO":"0.00"}})";
    may = AddReport(may);
    FidcSeries senior = QuotaSeries("Classe Sênior", 10.0, 1.0);
    senior.investor_count = 40;
    AddSeries(may, senior);
    FidcSeries junior = QuotaSeries("Classe Subordinada", 1.0, 1.0);
    junior.investor_count = 2;
    AddSeries(may, junior);
    AddSeries(may, QuotaSeries("Classe Mezanino", 1.0, 1.0));  // no count

    const sdk::Result result = Snapshot("2025-05");
    const auto& data = result.data.as_object();
    EXPECT_TRUE(data.at("pdd_brl").is_null());
    EXPECT_TRUE(data.at("pdd_ratio").is_null());
    EXPECT_EQ(data.at("pdd_partial_brl").as_double(), 0.0);
    EXPECT_EQ(data.at("pdd_partial_missing"), (boost::json::array{"TAB_I2A11_VL_REDUCAO_RECUP"}));
    EXPECT_TRUE(data.at("investor_count").is_null());
    EXPECT_EQ(data.at("investor_count_previous").as_int64(), 40);
    EXPECT_TRUE(data.at("investor_count_delta").is_null());
    EXPECT_EQ(data.at("investor_count_reported").as_int64(), 42);
    EXPECT_EQ(data.at("series_reporting").as_int64(), 2);
    EXPECT_EQ(data.at("series_total").as_int64(), 3);
    const auto& receivables = data.at("receivables").as_object();
    EXPECT_TRUE(receivables.at("components_brl").is_null());
    // Exact to the cent: the float sum of the two would be 1337255484.6000001.
    EXPECT_EQ(receivables.at("components_partial_brl").as_double(), 1337255484.6);
    EXPECT_EQ(receivables.at("components_partial_missing"),
              (boost::json::array{"TAB_I2A10_VL_CRED_DIVERSO", "TAB_I2B10_VL_CRED_DIVERSO"}));
    ExpectManifestShape("funds.class_snapshot", result.data);
}

}  // namespace
}  // namespace lastro::funds::testing
