#include "domain/rows/quota_operation_rows.hpp"
#include "fidc_report_fixture.hpp"
#include "src/quotas.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace lastro::funds::testing {
namespace {

using ::testing::ElementsAre;

class QuotaOperationsTest : public FidcReportTest {
protected:
    sdk::Result Operations(std::optional<std::string> from = std::nullopt,
                           std::optional<std::string> to = std::nullopt) {
        std::vector<Param> params{{"class_id", ClassIdFor("2001")}};
        if (from) {
            params.push_back({"from", MonthOf(*from)});
        }
        if (to) {
            params.push_back({"to", MonthOf(*to)});
        }
        return Run(&HandleClassQuotaOperations, params);
    }

    static const boost::json::object& Only(const sdk::Result& result) {
        EXPECT_EQ(result.data.as_array().size(), 1u);
        return result.data.as_array().at(0).as_object();
    }
};

TEST_F(QuotaOperationsTest, EveryKindIsSummedAndTheDerivedFlowsFollow) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2025-05"));
    FidcSeries senior = QuotaSeries("Subclasse Sênior Série 1", 1000.0, 2.0);
    senior.subclass_code = "SR1";
    AddSeries(report, senior);
    const std::string label = "Subclasse Sênior Série 1";
    AddOperation(report, QuotaOperation(label, "Captações no Mês", 200.0, 100.0));
    AddOperation(report, QuotaOperation(label, "Captações no Mês", 50.0, 25.0));
    AddOperation(report, QuotaOperation(label, "Resgates no Mês", 80.0, 40.0));
    AddOperation(report, QuotaOperation(label, "Resgates Solicitados", 30.0, 15.0));
    AddOperation(report, QuotaOperation(label, "Amortizações", 100.0, std::nullopt));
    AddOperation(report, QuotaOperation(label, "Transferências", 7.0, 3.0));

    const sdk::Result result = Operations();
    const auto& row = Only(result);
    EXPECT_EQ(row.at("reporting_date").as_string(), "2025-05-31");
    EXPECT_EQ(row.at("month").as_string(), "2025-05");
    EXPECT_EQ(row.at("series_id").as_string(), "SR1");
    EXPECT_EQ(row.at("share_class_type").as_string(), "senior");
    EXPECT_EQ(row.at("series_code").as_string(), "SR1");
    EXPECT_EQ(row.at("series_label").as_string(), label);
    EXPECT_DOUBLE_EQ(row.at("subscriptions_shares").to_number<double>(), 125.0);
    EXPECT_DOUBLE_EQ(row.at("subscriptions_brl").to_number<double>(), 250.0);
    EXPECT_DOUBLE_EQ(row.at("subscription_original_brl").to_number<double>(), 250.0);
    EXPECT_FALSE(row.at("subscription_outlier_removed").as_bool());
    EXPECT_DOUBLE_EQ(row.at("paid_redemptions_shares").to_number<double>(), 40.0);
    EXPECT_DOUBLE_EQ(row.at("paid_redemptions_brl").to_number<double>(), 80.0);
    EXPECT_DOUBLE_EQ(row.at("pending_redemptions_shares").to_number<double>(), 15.0);
    EXPECT_DOUBLE_EQ(row.at("pending_redemptions_brl").to_number<double>(), 30.0);
    EXPECT_DOUBLE_EQ(row.at("amortization_brl").to_number<double>(), 100.0);
    EXPECT_DOUBLE_EQ(row.at("amortization_per_share_brl").to_number<double>(), 0.1);  // 100 / 1000 quotas
    EXPECT_DOUBLE_EQ(row.at("net_flow_brl").to_number<double>(), 250.0 - 80.0 - 100.0);
    EXPECT_DOUBLE_EQ(row.at("outflows_brl").to_number<double>(), 180.0);
    EXPECT_DOUBLE_EQ(row.at("manager_reference_nav_brl").to_number<double>(), 2000.0);
    const auto& others = row.at("other_operations").as_array();
    ASSERT_EQ(others.size(), 1u);
    EXPECT_EQ(others[0].at("published_kind").as_string(), "Transferências");
    EXPECT_DOUBLE_EQ(others[0].at("value_brl").to_number<double>(), 7.0);
    EXPECT_DOUBLE_EQ(others[0].at("shares").to_number<double>(), 3.0);

    ExpectManifestShape("funds.class_quota_operations", result.data);
    ExpectSourcesForEveryField("funds.class_quota_operations", row, result.meta);
}

TEST_F(QuotaOperationsTest, AKindWithoutRowsIsNullNeverZero) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2025-05"));
    AddSeries(report, QuotaSeries("Sênior", 10.0, 1.0));
    AddOperation(report, QuotaOperation("Sênior", "Resgates Solicitados", 5.0, 5.0));

    const sdk::Result result = Operations();
    const auto& row = Only(result);
    for (const char* field : {"subscriptions_shares", "subscriptions_brl", "subscription_original_brl",
                              "paid_redemptions_shares", "paid_redemptions_brl", "amortization_brl",
                              "amortization_per_share_brl", "net_flow_brl", "outflows_brl"}) {
        EXPECT_TRUE(row.at(field).is_null()) << field;
    }
    EXPECT_FALSE(row.at("subscription_outlier_removed").as_bool());
    EXPECT_DOUBLE_EQ(row.at("pending_redemptions_brl").to_number<double>(), 5.0);
    EXPECT_TRUE(row.at("other_operations").as_array().empty());
    ExpectManifestShape("funds.class_quota_operations", result.data);
}

// Contract 2.1 and issue 17 point 3: a flow with a missing part is missing, not the other parts.
TEST_F(QuotaOperationsTest, NetFlowAndOutflowsAreNullWhenAPartIsMissing) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2025-05"));
    AddSeries(report, QuotaSeries("Sênior", 10.0, 1.0));
    AddOperation(report, QuotaOperation("Sênior", "Amortizações", 4.0, std::nullopt));
    // A row of a kind whose value is empty: the kind has a row but no value.
    AddOperation(report, QuotaOperation("Sênior", "Resgates no Mês", std::nullopt, 2.0));

    const sdk::Result result = Operations();
    const auto& row = Only(result);
    EXPECT_TRUE(row.at("outflows_brl").is_null()) << "the redemptions' value is missing, not 0";
    EXPECT_TRUE(row.at("net_flow_brl").is_null());
    EXPECT_TRUE(row.at("outflows_excluding_amortization_brl").is_null());
    EXPECT_TRUE(row.at("paid_redemptions_brl").is_null());
    EXPECT_DOUBLE_EQ(row.at("paid_redemptions_shares").to_number<double>(), 2.0);
    EXPECT_DOUBLE_EQ(row.at("amortization_per_share_brl").to_number<double>(), 0.4);
}

TEST_F(QuotaOperationsTest, ASwappedAmortizationIsServedInBrlWithItsReading) {
    // 08.632.394/0001-02, 2023-12: 56.76 per quota in TAB_X_VL_TOTAL, the BRL total in
    // TAB_X_QT_COTA, 400,000 quotas in X_2.
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2023-12"));
    AddSeries(report, QuotaSeries("Subclasse Senior Serie 1", 400000.0, 1312.9));
    AddOperation(report,
                 AmortizationRead("Subclasse Senior Serie 1", 56.76, 22705284.26, "swapped", 22705284.26));
    AddOperation(report, QuotaOperation("Subclasse Senior Serie 1", "Resgates no Mês", 1000.0, 1.0));
    AddOperation(report, QuotaOperation("Subclasse Senior Serie 1", "Captações no Mês", 0.0, 0.0));

    const sdk::Result result = Operations();
    const auto& row = Only(result);
    EXPECT_DOUBLE_EQ(row.at("amortization_brl").to_number<double>(), 22705284.26);
    EXPECT_DOUBLE_EQ(row.at("amortization_per_share_brl").to_number<double>(), 22705284.26 / 400000.0);
    EXPECT_EQ(row.at("amortization_reading").as_string(), "swapped");
    EXPECT_EQ(row.at("amortization_unverified_count").as_int64(), 0);
    EXPECT_DOUBLE_EQ(row.at("amortization_published_value").to_number<double>(), 56.76);
    EXPECT_DOUBLE_EQ(row.at("amortization_published_shares").to_number<double>(), 22705284.26);
    EXPECT_DOUBLE_EQ(row.at("outflows_brl").to_number<double>(), 22705284.26 + 1000.0);
    EXPECT_DOUBLE_EQ(row.at("net_flow_brl").to_number<double>(), -(22705284.26 + 1000.0));
    EXPECT_DOUBLE_EQ(row.at("outflows_excluding_amortization_brl").to_number<double>(), 1000.0);
    EXPECT_DOUBLE_EQ(row.at("net_flow_excluding_amortization_brl").to_number<double>(), -1000.0);
    ExpectManifestShape("funds.class_quota_operations", result.data);
    ExpectSourcesForEveryField("funds.class_quota_operations", row, result.meta);
}

TEST_F(QuotaOperationsTest, AnUnverifiedAmortizationLeavesItsTotalsNull) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2023-12"));
    AddOperation(report,
                 AmortizationRead("Subclasse Subordinada", 43.36, 30000000.02, "unverified", std::nullopt));
    AddOperation(report, QuotaOperation("Subclasse Subordinada", "Captações no Mês", 500.0, 1.0));
    AddOperation(report, QuotaOperation("Subclasse Subordinada", "Resgates no Mês", 200.0, 1.0));

    const sdk::Result result = Operations();
    const auto& row = Only(result);
    EXPECT_TRUE(row.at("amortization_brl").is_null());
    EXPECT_TRUE(row.at("amortization_per_share_brl").is_null());
    EXPECT_TRUE(row.at("outflows_brl").is_null());
    EXPECT_TRUE(row.at("net_flow_brl").is_null());
    EXPECT_EQ(row.at("amortization_reading").as_string(), "unverified");
    EXPECT_EQ(row.at("amortization_unverified_count").as_int64(), 1);
    // The published figures stay available, and so do the flows without the amortization.
    EXPECT_DOUBLE_EQ(row.at("amortization_published_value").to_number<double>(), 43.36);
    EXPECT_DOUBLE_EQ(row.at("amortization_published_shares").to_number<double>(), 30000000.02);
    EXPECT_DOUBLE_EQ(row.at("outflows_excluding_amortization_brl").to_number<double>(), 200.0);
    EXPECT_DOUBLE_EQ(row.at("net_flow_excluding_amortization_brl").to_number<double>(), 300.0);
    EXPECT_DOUBLE_EQ(row.at("subscriptions_brl").to_number<double>(), 500.0);
}

TEST_F(QuotaOperationsTest, AnAmortizationIngestedBeforeReadingsExistedIsUnverified) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2023-12"));
    AddOperation(report, AmortizationRead("Sênior", 10.0, 5.0, std::nullopt, std::nullopt));
    const sdk::Result result = Operations();
    const auto& row = Only(result);
    EXPECT_TRUE(row.at("amortization_brl").is_null());
    EXPECT_EQ(row.at("amortization_reading").as_string(), "unverified");
    EXPECT_EQ(row.at("amortization_unverified_count").as_int64(), 1);
}

TEST_F(QuotaOperationsTest, WithoutAmortizationRowsTheReadingIsNull) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2023-12"));
    AddOperation(report, QuotaOperation("Sênior", "Resgates no Mês", 200.0, 1.0));
    const sdk::Result result = Operations();
    const auto& row = Only(result);
    EXPECT_TRUE(row.at("amortization_reading").is_null());
    EXPECT_EQ(row.at("amortization_unverified_count").as_int64(), 0);
    EXPECT_TRUE(row.at("amortization_published_value").is_null());
    // No amortization row: the amortization is not known, so neither are the outflows (a kind
    // without rows is null, never 0); the redemptions alone are.
    EXPECT_TRUE(row.at("outflows_brl").is_null());
    EXPECT_DOUBLE_EQ(row.at("outflows_excluding_amortization_brl").to_number<double>(), 200.0);
}

TEST_F(QuotaOperationsTest, SeriesOfARepeatedLabelAreRowsOfTheirOwnInIdentityOrder) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2023-10"));
    const std::string label = "Subclasse Subordinada 0 | 0";
    for (const auto& [key, quotas] :
         std::vector<std::pair<std::string, double>>{{"subclasse subordinada 0 | 0 #3", 11888.46},
                                                     {"subclasse subordinada 0 | 0", 4760.1},
                                                     {"subclasse subordinada 0 | 0 #2", 25000.0}}) {
        FidcSeries series = QuotaSeries(label, quotas, 1000.0);
        series.series_key = key;
        AddSeries(report, series);
        FidcQuotaOperation operation = QuotaOperation(label, "Captações no Mês", quotas * 1000.0, quotas);
        operation.series_key = key;
        AddOperation(report, operation);
    }
    const sdk::Result result = Operations();
    std::vector<std::string> ids;
    std::vector<double> shares;
    for (const auto& row : result.data.as_array()) {
        ids.emplace_back(row.at("series_id").as_string());
        shares.push_back(row.at("subscriptions_shares").to_number<double>());
    }
    EXPECT_THAT(ids, ElementsAre("subclasse-subordinada-0-0", "subclasse-subordinada-0-0-2",
                                 "subclasse-subordinada-0-0-3"));
    EXPECT_THAT(shares, ElementsAre(4760.1, 25000.0, 11888.46));
}

TEST_F(QuotaOperationsTest, ASubscriptionPricedMoreThanTenfoldAwayIsRemoved) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2025-05"));
    AddSeries(report, QuotaSeries("Sênior", 1000.0, 1.0));
    // 5000 BRL for 100 quotas of 1 BRL: 50 per quota, 50 times the quota value.
    AddOperation(report, QuotaOperation("Sênior", "Captações no Mês", 5000.0, 100.0));
    AddOperation(report, QuotaOperation("Sênior", "Resgates no Mês", 10.0, 10.0));

    const sdk::Result result = Operations();
    const auto& row = Only(result);
    EXPECT_TRUE(row.at("subscriptions_brl").is_null());
    EXPECT_TRUE(row.at("subscription_outlier_removed").as_bool());
    EXPECT_DOUBLE_EQ(row.at("subscription_original_brl").to_number<double>(), 5000.0);
    EXPECT_DOUBLE_EQ(row.at("subscriptions_shares").to_number<double>(), 100.0);
    // The removed subscription is not known, so neither is the net flow: null, never -10.
    EXPECT_TRUE(row.at("net_flow_brl").is_null());
}

TEST_F(QuotaOperationsTest, TheOutlierRuleComparesWithTheQuotaValueBothWays) {
    EXPECT_FALSE(IsSubscriptionOutlier(1000.0, 100.0, 1.0));          // exactly 10x: kept
    EXPECT_TRUE(IsSubscriptionOutlier(1000.01, 100.0, 1.0));          // above 10x
    EXPECT_FALSE(IsSubscriptionOutlier(10.0, 100.0, 1.0));            // exactly a tenth: kept
    EXPECT_TRUE(IsSubscriptionOutlier(9.99, 100.0, 1.0));             // below a tenth
    EXPECT_TRUE(IsSubscriptionOutlier(0.0, 100.0, 1.0));              // nothing paid for quotas issued
    EXPECT_FALSE(IsSubscriptionOutlier(100.0, 100.0, std::nullopt));  // no X_2 value to compare
    EXPECT_FALSE(IsSubscriptionOutlier(100.0, std::nullopt, 1.0));
    EXPECT_FALSE(IsSubscriptionOutlier(100.0, 0.0, 1.0));
    EXPECT_FALSE(IsSubscriptionOutlier(std::nullopt, 100.0, 1.0));
}

TEST_F(QuotaOperationsTest, ASeriesOnlyInX4HasNoQuotaData) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2025-05"));
    AddSeries(report, QuotaSeries("Sênior", 10.0, 1.0));  // no X_4 row: no operations row
    AddOperation(report, QuotaOperation("Subordinada Júnior", "Amortizações", 3.0, std::nullopt));
    AddOperation(report, QuotaOperation("Subordinada Júnior", "Captações no Mês", 500.0, 1.0));

    const sdk::Result result = Operations();
    const auto& row = Only(result);
    EXPECT_EQ(row.at("series_label").as_string(), "Subordinada Júnior");
    EXPECT_EQ(row.at("series_id").as_string(), "subordinada-junior");
    EXPECT_EQ(row.at("share_class_type").as_string(), "subordinated");
    EXPECT_TRUE(row.at("series_code").is_null());
    EXPECT_TRUE(row.at("manager_reference_nav_brl").is_null());
    EXPECT_TRUE(row.at("amortization_per_share_brl").is_null());
    EXPECT_FALSE(row.at("subscription_outlier_removed").as_bool());  // nothing to compare with
    EXPECT_DOUBLE_EQ(row.at("subscriptions_brl").to_number<double>(), 500.0);
    ExpectManifestShape("funds.class_quota_operations", result.data);
}

TEST_F(QuotaOperationsTest, RowsFollowMonthSeniorityAndLabelWithinTheRange) {
    for (const char* month : {"2025-03", "2025-04", "2025-05"}) {
        const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, month));
        AddOperation(report, QuotaOperation("Subordinada", "Amortizações", 1.0, std::nullopt));
        AddOperation(report, QuotaOperation("Sênior", "Amortizações", 1.0, std::nullopt));
    }
    std::vector<std::string> order;
    const sdk::Result from_april = Operations("2025-04");
    for (const auto& row : from_april.data.as_array()) {
        order.push_back(std::string(row.at("month").as_string()) + " " +
                        std::string(row.at("series_label").as_string()));
    }
    EXPECT_THAT(
        order, ElementsAre("2025-04 Sênior", "2025-04 Subordinada", "2025-05 Sênior", "2025-05 Subordinada"));
    EXPECT_EQ(Operations(std::nullopt, "2025-03").data.as_array().size(), 2u);
    EXPECT_TRUE(Operations("2024-01", "2024-12").data.as_array().empty());
    // The reference period is the latest month served, none when nothing is.
    EXPECT_EQ(from_april.meta.as_of, "2025-05");
    EXPECT_EQ(Operations(std::nullopt, "2025-03").meta.as_of, "2025-03");
    EXPECT_EQ(Operations("2024-01", "2024-12").meta.as_of, std::nullopt);
    EXPECT_THROW(Operations("2025-05", "2025-04"), sdk::BadRequest);
}

}  // namespace
}  // namespace lastro::funds::testing
