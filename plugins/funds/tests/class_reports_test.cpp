// The report readers of the class endpoints (src/class_reports.hpp): the JSON documents of a
// report stay in the database until a caller asks for them.
#include "src/class_reports.hpp"
#include "domain/rows/quota_answers.hpp"
#include "fidc_report_fixture.hpp"
#include "funds_model-odb.hxx"

#include <gtest/gtest.h>

#include <lastro/sdk/problem.hpp>
#include <odb/database.hxx>
#include <odb/exceptions.hxx>
#include <odb/schema-catalog.hxx>
#include <odb/transaction.hxx>

#include <string>

namespace lastro::funds::testing {
namespace {

class ClassReportsTest : public FidcReportTest {
protected:
    // A report of class 2001 with every JSON document filled.
    FidcReport AlfaReport(const std::string& month, double nav) {
        FidcReport report = MonthlyReport(kAlfaCnpj, month);
        report.nav = nav;
        report.segments_json =
            R"([{"code":"industrial","name":"Industrial","source":"TAB_II_A_VL_INDUST","value":1.5E3}])";
        report.bands_json = R"({"V":null,"VI":null})";
        // Far larger than the buffers ODB starts with, as real documents are: reading it back
        // goes through the buffer growth that lazily loaded sections cannot survive on SQLite.
        report.published_json = R"({"IV":{"TAB_IV_A_VL_PL":")" + std::to_string(nav) + R"(","TAB_IV_B":")" +
                                std::string(50000, '7') + R"("}})";
        return AddReport(report);
    }

    static void ExpectUnloaded(const FidcReport& report) {
        EXPECT_FALSE(report.json_documents.loaded());
        EXPECT_FALSE(report.segments_json);
        EXPECT_FALSE(report.bands_json);
        EXPECT_EQ(report.published_json, "");
    }

    // Loads the documents of `report` and checks them against what was persisted.
    void ExpectLoadsAsStored(FidcReport& report, const FidcReport& stored) {
        LoadReportDocuments(Db(), report);
        EXPECT_EQ(report.segments_json, stored.segments_json);
        EXPECT_EQ(report.bands_json, stored.bands_json);
        EXPECT_EQ(report.published_json, stored.published_json);
    }
};

// FindClass reads the class's keys, its fund's and the fund's class count in one statement
// (ClassKeys): the filing CNPJs follow from the three.
TEST_F(ClassReportsTest, FindClassReadsTheClassItsFundAndWhetherItIsTheFundsOnlyClass) {
    odb::transaction transaction(Db().begin());
    const ClassRef alfa = FindClass(Db(), ClassIdFor("2002"));
    EXPECT_EQ(alfa.class_id, ClassIdFor("2002"));
    EXPECT_EQ(alfa.cnpj, kAlfaMezzCnpj);
    EXPECT_EQ(alfa.fund_id, FundIdFor("1001"));
    EXPECT_EQ(alfa.fund_cnpj, kAlfaCnpj);
    EXPECT_FALSE(alfa.only_class);  // 2001 is the fund's other class
    EXPECT_EQ(alfa.filing_cnpjs, std::vector<std::string>{kAlfaMezzCnpj});

    const ClassRef gama = FindClass(Db(), ClassIdFor("2003"));
    EXPECT_EQ(gama.fund_id, FundIdFor("1002"));
    EXPECT_EQ(gama.fund_cnpj, kGamaFundCnpj);
    EXPECT_TRUE(gama.only_class);
    EXPECT_EQ(gama.filing_cnpjs, (std::vector<std::string>{kGamaClassCnpj, kGamaFundCnpj}));

    EXPECT_THROW(FindClass(Db(), ClassIdFor("2999")), sdk::NotFound);
    transaction.commit();
}

TEST_F(ClassReportsTest, AClassWhoseFundIsMissingIsNotFoundByItsFund) {
    {
        odb::transaction transaction(Db().begin());
        Db().erase<Fund>(FundIdFor("1002"));
        transaction.commit();
    }
    odb::transaction transaction(Db().begin());
    try {
        FindClass(Db(), ClassIdFor("2003"));
        ADD_FAILURE() << "a class whose fund is missing was found";
    } catch (const sdk::NotFound& e) {
        EXPECT_NE(std::string(e.what()).find("the fund of class"), std::string::npos) << e.what();
    }
    transaction.commit();
}

TEST_F(ClassReportsTest, ReportsBetweenReadsTheColumnsButNotTheJsonDocuments) {
    const FidcReport april = AlfaReport("2025-04", 1000.0);
    const FidcReport may = AlfaReport("2025-05", 2000.0);

    odb::transaction transaction(Db().begin());
    const ClassRef ref = FindClass(Db(), ClassIdFor("2001"));
    std::vector<FidcReport> reports = ReportsBetween(Db(), ref, MonthOf("2025-04"), MonthOf("2025-05"));
    ASSERT_EQ(reports.size(), 2u);
    EXPECT_EQ(reports[0].id, april.id);
    EXPECT_EQ(reports[0].nav, 1000.0);
    EXPECT_EQ(reports[1].id, may.id);
    EXPECT_EQ(reports[1].nav, 2000.0);
    EXPECT_EQ(reports[1].reference_date, "2025-05-31");
    for (const FidcReport& report : reports) {
        ExpectUnloaded(report);
    }
    ExpectLoadsAsStored(reports[1], may);
    transaction.commit();
}

TEST_F(ClassReportsTest, ReportOfReadsTheColumnsButNotTheJsonDocuments) {
    AlfaReport("2025-04", 1000.0);
    const FidcReport may = AlfaReport("2025-05", 2000.0);

    odb::transaction transaction(Db().begin());
    const ClassRef ref = FindClass(Db(), ClassIdFor("2001"));
    std::optional<FidcReport> report = ReportOf(Db(), ref, MonthOf("2025-05"));
    ASSERT_TRUE(report);
    EXPECT_EQ(report->id, may.id);
    EXPECT_EQ(report->nav, 2000.0);
    ExpectUnloaded(*report);
    ExpectLoadsAsStored(*report, may);
    transaction.commit();
}

// The quota columns of a report as the migration to funds 9 reads them (the FidcQuotaReport
// view) and as the ingester takes them (QuotaReportOf the whole
// report) are the same, so both write the same stored answers; and the stored answers are
// picked month by month with the whole reports' CNPJ preference.
TEST_F(ClassReportsTest, QuotaReportsCarryTheReportsColumnsAndTheirAnswersArePickedAsTheReports) {
    FidcReport april = MonthlyReport(kAlfaCnpj, "2025-04");
    april.nav = 1000.5;
    april.senior_nav = 700.25;
    april.subordinated_nav = 300.25;
    april.series_nav_total = 1000.5;
    april.subordination_without_mezzanine_ratio = 0.3;
    april = AddReport(april);
    const FidcReport may = AlfaReport("2025-05", 2000.0);  // the quota figures left null
    {
        odb::transaction transaction(Db().begin());
        RebuildQuotaAnswers(Db());
        transaction.commit();
    }

    odb::transaction transaction(Db().begin());
    const ClassRef ref = FindClass(Db(), ClassIdFor("2001"));
    const auto whole = ReportsBetween(Db(), ref, MonthOf("2025-04"), MonthOf("2025-05"));
    const auto answers = ReportsBetween<FidcQuotaRowsText>(Db(), ref, MonthOf("2025-04"), MonthOf("2025-05"));
    std::vector<FidcQuotaReport> quota;
    for (FidcQuotaReport& one : Db().query<FidcQuotaReport>(
             odb::query<FidcQuotaReport>(odb::query<FidcReport>::cnpj == std::string(kAlfaCnpj)) +
             "ORDER BY" + odb::query<FidcReport>::month)) {
        quota.push_back(std::move(one));
    }
    transaction.commit();
    ASSERT_EQ(quota.size(), 2u);
    ASSERT_EQ(whole.size(), 2u);
    ASSERT_EQ(answers.size(), 2u);
    for (std::size_t i = 0; i < quota.size(); ++i) {
        const FidcQuotaReport taken = QuotaReportOf(whole[i]);
        EXPECT_EQ(quota[i].id, taken.id);
        EXPECT_EQ(quota[i].cnpj, taken.cnpj);
        EXPECT_EQ(quota[i].month, taken.month);
        EXPECT_EQ(quota[i].reference_date, taken.reference_date);
        EXPECT_EQ(quota[i].filer_type, taken.filer_type);
        EXPECT_EQ(quota[i].nav, taken.nav);
        EXPECT_EQ(quota[i].senior_nav, taken.senior_nav);
        EXPECT_EQ(quota[i].mezzanine_nav, taken.mezzanine_nav);
        EXPECT_EQ(quota[i].subordinated_nav, taken.subordinated_nav);
        EXPECT_EQ(quota[i].series_nav_total, taken.series_nav_total);
        EXPECT_EQ(quota[i].subordination_with_mezzanine_ratio, taken.subordination_with_mezzanine_ratio);
        EXPECT_EQ(quota[i].subordination_without_mezzanine_ratio,
                  taken.subordination_without_mezzanine_ratio);
        EXPECT_EQ(answers[i].id, whole[i].id);
        EXPECT_EQ(answers[i].cnpj, whole[i].cnpj);
        EXPECT_EQ(answers[i].month, whole[i].month);
        EXPECT_EQ(answers[i].filer_type, whole[i].filer_type);
        EXPECT_EQ(answers[i].rows, 0);  // no series
        EXPECT_EQ(answers[i].json, "");
    }
    EXPECT_EQ(quota[0].id, april.id);
    EXPECT_EQ(quota[0].senior_nav, 700.25);
    EXPECT_EQ(quota[1].id, may.id);
    EXPECT_FALSE(quota[1].senior_nav);  // null stays null
}

// A database one version back, without the index `index` that version `to` adds, migrates to
// `to` with it (as lastro db migrate does).
void ExpectMigrationCreates(odb::database& db, unsigned to, const std::string& index) {
    {
        odb::transaction transaction(db.begin());
        db.execute("DROP INDEX " + index);
        db.execute("UPDATE schema_version SET version = " + std::to_string(to - 1) + " WHERE name = 'funds'");
        transaction.commit();
    }
    {
        odb::transaction transaction(db.begin());
        odb::schema_catalog::migrate(db, to, "funds");
        transaction.commit();
    }
    odb::transaction transaction(db.begin());
    EXPECT_EQ(db.schema_version("funds"), to);
    EXPECT_NO_THROW(db.execute("DROP INDEX " + index)) << index;  // there to drop
    transaction.commit();
}

TEST_F(ClassReportsTest, ASchema7DatabaseMigratesToThePortfolioFactsIndex) {
    ExpectMigrationCreates(Db(), 8, "funds_fidc_report_facts_i");
}

TEST_F(ClassReportsTest, ASchema9DatabaseMigratesToTheSeriesNamingIndex) {
    ExpectMigrationCreates(Db(), 10, "funds_fidc_series_naming_i");
}

}  // namespace
}  // namespace lastro::funds::testing
