#include "src/quotas.hpp"
#include "domain/rows/quota_rows.hpp"
#include "fidc_report_fixture.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace lastro::funds::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class QuotasTest : public FidcReportTest {
protected:
    sdk::Result Quotas(const std::string& class_id, std::optional<std::string> from = std::nullopt,
                       std::optional<std::string> to = std::nullopt) {
        std::vector<Param> params{{"class_id", class_id}};
        if (from) {
            params.push_back({"from", MonthOf(*from)});
        }
        if (to) {
            params.push_back({"to", MonthOf(*to)});
        }
        return Run(&HandleClassQuotas, params);
    }

    // A report of class 2001 for `month` with one senior series.
    void AlfaMonth(const std::string& month) {
        const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, month));
        AddSeries(report, QuotaSeries("Classe Sênior", 1.0, 1.0));
    }

    static std::vector<std::string> Months(const sdk::Result& result) {
        std::vector<std::string> months;
        for (const auto& row : result.data.as_array()) {
            months.emplace_back(row.at("month").as_string());
        }
        return months;
    }
};

TEST_F(QuotasTest, EveryFieldOfARowComesFromItsSeriesAndReport) {
    FidcReport report = MonthlyReport(kAlfaCnpj, "2025-05");
    report.nav = 1990.0;
    report.senior_nav = 1500.0;
    report.mezzanine_nav = 300.0;
    report.subordinated_nav = 200.0;
    report.series_nav_total = 2000.0;
    report.subordination_with_mezzanine_ratio = 0.25;
    report.subordination_without_mezzanine_ratio = 0.10;
    report = AddReport(report);
    FidcSeries senior = QuotaSeries("Subclasse Sênior Série 1", 1000.0, 1.5);
    senior.subclass_code = "SUB-1";
    senior.investor_count = 12;
    senior.profitability_pct = 1.07;
    AddSeries(report, senior);

    const sdk::Result result = Quotas(ClassIdFor("2001"));
    ASSERT_EQ(result.data.as_array().size(), 1u);
    const auto& row = result.data.as_array()[0].as_object();
    EXPECT_EQ(row.at("reporting_date").as_string(), "2025-05-31");
    EXPECT_EQ(row.at("month").as_string(), "2025-05");
    EXPECT_EQ(row.at("series_id").as_string(), "SUB-1");
    EXPECT_EQ(row.at("share_class_type").as_string(), "senior");
    EXPECT_EQ(row.at("series_code").as_string(), "SUB-1");
    EXPECT_EQ(row.at("series_label").as_string(), "Subclasse Sênior Série 1");
    EXPECT_DOUBLE_EQ(row.at("quota_count").to_number<double>(), 1000.0);
    EXPECT_DOUBLE_EQ(row.at("quota_value_brl").to_number<double>(), 1.5);
    EXPECT_DOUBLE_EQ(row.at("series_nav_brl").to_number<double>(), 1500.0);
    EXPECT_EQ(row.at("investor_count").as_int64(), 12);
    EXPECT_DOUBLE_EQ(row.at("monthly_return_pct").to_number<double>(), 1.07);
    EXPECT_DOUBLE_EQ(row.at("senior_nav_brl").to_number<double>(), 1500.0);
    EXPECT_DOUBLE_EQ(row.at("mezzanine_nav_brl").to_number<double>(), 300.0);
    EXPECT_DOUBLE_EQ(row.at("subordinated_nav_brl").to_number<double>(), 200.0);
    EXPECT_DOUBLE_EQ(row.at("total_nav_brl").to_number<double>(), 2000.0);
    EXPECT_DOUBLE_EQ(row.at("reported_nav_brl").to_number<double>(), 1990.0);
    EXPECT_DOUBLE_EQ(row.at("subordination_with_mezzanine_ratio").to_number<double>(), 0.25);
    EXPECT_DOUBLE_EQ(row.at("subordination_without_mezzanine_ratio").to_number<double>(), 0.10);

    ExpectManifestShape("funds.class_quotas", result.data);
    ExpectSourcesForEveryField("funds.class_quotas", row, result.meta);
    EXPECT_EQ(result.meta.data_release, "release-of-cvm.inf_mensal_fidc");
    ASSERT_EQ(result.meta.sources.size(), 1u);
    EXPECT_EQ(result.meta.sources[0].dataset, "inf_mensal_fidc");
}

TEST_F(QuotasTest, MissingValuesStayNull) {
    const FidcReport report = AddReport(MonthlyReport(kAlfaCnpj, "2025-05"));
    AddSeries(report, QuotaSeries("Cota Única", 1000.0, std::nullopt));

    const sdk::Result result = Quotas(ClassIdFor("2001"));
    ASSERT_EQ(result.data.as_array().size(), 1u);
    const auto& row = result.data.as_array()[0].as_object();
    EXPECT_EQ(row.at("share_class_type").as_string(), "unknown");
    EXPECT_TRUE(row.at("series_code").is_null());
    EXPECT_DOUBLE_EQ(row.at("quota_count").to_number<double>(), 1000.0);
    for (const char* field :
         {"quota_value_brl", "series_nav_brl", "investor_count", "monthly_return_pct", "senior_nav_brl",
          "mezzanine_nav_brl", "subordinated_nav_brl", "total_nav_brl", "reported_nav_brl",
          "subordination_with_mezzanine_ratio", "subordination_without_mezzanine_ratio"}) {
        EXPECT_TRUE(row.at(field).is_null()) << field;
    }
    ExpectManifestShape("funds.class_quotas", result.data);
}

TEST_F(QuotasTest, SeriesIdIsTheSubclassCodeElseASlugOfTheLabel) {
    EXPECT_EQ(SeriesId(std::string("ABC123"), "subclasse senior"), "ABC123");
    EXPECT_EQ(SeriesId(std::nullopt, "subclasse subordinada cota mezanino | serie 1"),
              "subclasse-subordinada-cota-mezanino-serie-1");
    EXPECT_EQ(SeriesId(std::string(""), "  senior  "), "senior");
    EXPECT_EQ(Slug("Classe A/B -- 2"), "classe-a-b-2");
}

TEST_F(QuotasTest, RowsAreOrderedByMonthThenSeniorityThenLabel) {
    const FidcReport may = AddReport(MonthlyReport(kAlfaCnpj, "2025-05"));
    AddSeries(may, QuotaSeries("Subordinada Júnior", 1.0, 1.0));
    AddSeries(may, QuotaSeries("Sênior B", 1.0, 1.0));
    AddSeries(may, QuotaSeries("Subordinada Mezanino", 1.0, 1.0));
    AddSeries(may, QuotaSeries("Sênior A", 1.0, 1.0));
    AddSeries(may, QuotaSeries("Outra", 1.0, 1.0));
    const FidcReport april = AddReport(MonthlyReport(kAlfaCnpj, "2025-04"));
    AddSeries(april, QuotaSeries("Sênior A", 1.0, 1.0));

    const sdk::Result result = Quotas(ClassIdFor("2001"));
    std::vector<std::string> order;
    for (const auto& row : result.data.as_array()) {
        order.push_back(std::string(row.at("month").as_string()) + " " +
                        std::string(row.at("series_label").as_string()));
    }
    EXPECT_THAT(order,
                ElementsAre("2025-04 Sênior A", "2025-05 Sênior A", "2025-05 Sênior B",
                            "2025-05 Subordinada Mezanino", "2025-05 Subordinada Júnior", "2025-05 Outra"));
}

TEST_F(QuotasTest, FromAndToBoundTheMonthsInclusively) {
    for (const char* month : {"2025-02", "2025-03", "2025-04", "2025-05"}) {
        AlfaMonth(month);
    }
    EXPECT_THAT(Months(Quotas(ClassIdFor("2001"))), ElementsAre("2025-02", "2025-03", "2025-04", "2025-05"));
    EXPECT_THAT(Months(Quotas(ClassIdFor("2001"), "2025-04")), ElementsAre("2025-04", "2025-05"));
    EXPECT_THAT(Months(Quotas(ClassIdFor("2001"), std::nullopt, "2025-03")),
                ElementsAre("2025-02", "2025-03"));
    EXPECT_THAT(Months(Quotas(ClassIdFor("2001"), "2025-03", "2025-03")), ElementsAre("2025-03"));

    const sdk::Result empty = Quotas(ClassIdFor("2001"), "2026-01", "2026-12");
    EXPECT_TRUE(empty.data.as_array().empty());
    // The reference period is the latest month served, none when nothing is.
    EXPECT_EQ(Quotas(ClassIdFor("2001")).meta.as_of, "2025-05");
    EXPECT_EQ(Quotas(ClassIdFor("2001"), std::nullopt, "2025-03").meta.as_of, "2025-03");
    EXPECT_EQ(empty.meta.as_of, std::nullopt);
}

TEST_F(QuotasTest, FromAfterToIsABadRequest) {
    AlfaMonth("2025-05");
    try {
        Quotas(ClassIdFor("2001"), "2025-06", "2025-05");
        FAIL() << "expected BadRequest";
    } catch (const sdk::BadRequest& problem) {
        EXPECT_THAT(problem.what(), HasSubstr("2025-06"));
        EXPECT_THAT(problem.what(), HasSubstr("2025-05"));
        EXPECT_EQ(problem.Parameter(), "from");
    }
}

TEST_F(QuotasTest, UnknownClassIsNotFoundAndAClassWithoutReportsIsEmpty) {
    EXPECT_THROW(Quotas("2b9c1d52-0000-5000-8000-000000000000"), sdk::NotFound);
    AlfaMonth("2025-05");
    EXPECT_TRUE(Quotas(ClassIdFor("2002")).data.as_array().empty());
}

TEST_F(QuotasTest, AnOnlyClassOwnsItsFundsFilingsButItsOwnCnpjWins) {
    // Class 2003 is fund 1002's only class: the fund's filing of April is the class's; in May
    // both CNPJs filed and the class's own report is used.
    const FidcReport april = AddReport(MonthlyReport(kGamaFundCnpj, "2025-04"));
    AddSeries(april, QuotaSeries("Sênior por fundo", 1.0, 1.0));
    const FidcReport may_fund = AddReport(MonthlyReport(kGamaFundCnpj, "2025-05"));
    AddSeries(may_fund, QuotaSeries("Sênior por fundo", 1.0, 1.0));
    const FidcReport may_class = AddReport(MonthlyReport(kGamaClassCnpj, "2025-05"));
    AddSeries(may_class, QuotaSeries("Sênior da classe", 1.0, 1.0));

    const sdk::Result result = Quotas(ClassIdFor("2003"));
    std::vector<std::string> labels;
    for (const auto& row : result.data.as_array()) {
        labels.emplace_back(row.at("series_label").as_string());
    }
    EXPECT_THAT(labels, ElementsAre("Sênior por fundo", "Sênior da classe"));
    EXPECT_THAT(Months(result), ElementsAre("2025-04", "2025-05"));
}

TEST_F(QuotasTest, TheSeriesOfAReportNotServedNeverJoinTheMonthsAround) {
    // The series are read by filing CNPJ over its months: the fund's May filing lies between
    // its April and June ones, but May is the class's own report, so none of its series count.
    for (const char* month : {"2025-04", "2025-05", "2025-06"}) {
        const FidcReport by_fund = AddReport(MonthlyReport(kGamaFundCnpj, month));
        AddSeries(by_fund, QuotaSeries(std::string("Sênior por fundo ") + month, 1.0, 1.0));
        AddSeries(by_fund, QuotaSeries(std::string("Subordinada por fundo ") + month, 1.0, 1.0));
    }
    const FidcReport may_class = AddReport(MonthlyReport(kGamaClassCnpj, "2025-05"));
    AddSeries(may_class, QuotaSeries("Sênior da classe", 2.0, 1.0));

    const sdk::Result result = Quotas(ClassIdFor("2003"));
    std::vector<std::string> labels;
    for (const auto& row : result.data.as_array()) {
        labels.emplace_back(row.at("series_label").as_string());
    }
    EXPECT_THAT(labels,
                ElementsAre("Sênior por fundo 2025-04", "Subordinada por fundo 2025-04", "Sênior da classe",
                            "Sênior por fundo 2025-06", "Subordinada por fundo 2025-06"));
    EXPECT_THAT(Months(result), ElementsAre("2025-04", "2025-04", "2025-05", "2025-06", "2025-06"));
}

TEST_F(QuotasTest, AFundOfSeveralClassesLendsItsFilingsToNone) {
    const FidcReport report = AddReport(MonthlyReport(kMultiCnpj, "2025-05"));
    AddSeries(report, QuotaSeries("Sênior", 1.0, 1.0));
    EXPECT_TRUE(Quotas(ClassIdFor("2006")).data.as_array().empty());
    EXPECT_TRUE(Quotas(ClassIdFor("2007")).data.as_array().empty());
}

}  // namespace
}  // namespace lastro::funds::testing
