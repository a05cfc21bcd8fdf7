// The report readers of the class endpoints (src/class_reports.hpp): the JSON documents of a
// report stay in the database until a caller asks for them.
#include "src/class_reports.hpp"
#include "fidc_report_fixture.hpp"
#include "funds_model-odb.hxx"

#include <gtest/gtest.h>

#include <odb/database.hxx>
#include <odb/transaction.hxx>

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

}  // namespace
}  // namespace lastro::funds::testing
