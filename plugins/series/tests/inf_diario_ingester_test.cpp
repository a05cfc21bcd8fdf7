// The daily reports' ingester on a plugin database (SQLite, or PostgreSQL with
// LASTRO_TEST_BACKEND): months as CVM ships them (zip, plain csv, a year's archive), one row a
// series and day, a republished month replacing the stored one with its old values kept as
// revisions, the counts, and the refusals that leave the database as it was.
#include "ingest/inf_diario/inf_diario_ingester.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <gtest/gtest.h>
#include <odb/transaction.hxx>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace lastro::series {
namespace {

namespace fs = std::filesystem;
using sdk::testing::RunIngest;

constexpr std::time_t kFirstDay = 1790000000;  // 2026-09-21
constexpr std::time_t kLaterDay = 1790500000;  // 2026-09-27

const std::string kClasses =
    "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_"
    "DIA;"
    "NR_COTST\n";
const std::string kLegacy =
    "TP_FUNDO;CNPJ_FUNDO;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_DIA;NR_COTST\n";

// Two real-shaped CNPJs with valid check digits.
constexpr const char* kFundA = "00.017.024/0001-53";
constexpr const char* kFundB = "11.222.333/0001-81";

class DailyDatabase : public sdk::testing::PluginDatabase {
public:
    DailyDatabase() : PluginDatabase("series") {}

    sdk::IngestSummary Ingest(const std::vector<fs::path>& files, std::time_t now = kFirstDay) {
        InfDiarioIngester ingester;
        return RunIngest(ingester, Db(), "cvm.inf_diario_fi", files, now);
    }
    fs::path Csv(const std::string& name, const std::string& text) {
        const fs::path path = Subdir("in") / name;
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    fs::path Zip(const std::string& name, const std::vector<std::pair<std::string, std::string>>& members) {
        const fs::path path = Subdir("in") / name;
        sdk::ZipWriter zip(path);
        for (const auto& [member, text] : members) {
            zip.Add(member, text, 1790000000);
        }
        zip.Close();
        return path;
    }
    sdk::SqlRows Rows(const std::string& query) {
        odb::transaction transaction(Db().begin());
        sdk::SqlRows rows = sdk::SqlSession(Db()).Query(query);
        transaction.commit();
        return rows;
    }
    std::string One(const std::string& query) { return Rows(query).at(0).at(0).value_or("NULL"); }
};

std::string Row(const std::string& type, const std::string& cnpj, const std::string& subclass,
                const std::string& day, const std::string& quota, const std::string& net_worth = "1000.00") {
    return type + ";" + cnpj + ";" + subclass + ";" + day + ";1000.00;" + quota + ";" + net_worth +
           ";0.00;0.00;10\n";
}

TEST(InfDiarioIngesterTest, StoresAMonthWithItsPublishedTextAndOneRowASeriesAndDay) {
    DailyDatabase db;
    const std::string month =
        kClasses + Row("CLASSES - FIF", kFundA, "", "2026-09-01", "1.100000000000") +
        Row("CLASSES - FIF", kFundA, "", "2026-09-02", "1.100100") +            // fewer decimals, kept
        Row("FI", kFundB, "", "2026-09-01", "2.000000000000") +                 // filed as the fund...
        Row("CLASSES - FIF", kFundB, "", "2026-09-01", "2.000000000001") +      // ...and as the class: kept
        Row("CLASSES - FIF", kFundB, "RBMFN1747320951", "2026-09-01", "3.5") +  // a subclass: its own series
        "CLASSES - FIF;" + kFundA + ";;2026-09-03;;;;;;\n" +                    // nulls stay null
        Row("CLASSES - FIF", kFundA, "", "2026-08-31", "1.0");                  // not of the month: rejected
    const sdk::IngestSummary summary =
        db.Ingest({db.Zip("inf_diario_fi_202609.zip", {{"inf_diario_fi_202609.csv", month}})});

    EXPECT_EQ(summary.rows_read, 7u);
    EXPECT_EQ(summary.inserted, 5u);
    EXPECT_EQ(summary.rejected, 2u);  // the filing left out and the day of another month
    ASSERT_EQ(summary.periods, std::vector<std::string>{"2026-09"});
    EXPECT_EQ(summary.as_of, "2026-09-03");
    bool named_duplicate = false;
    bool named_month = false;
    for (const std::string& message : summary.rejections) {
        named_duplicate |= message.find("11222333000181 2026-09-01 filed again as CLASSES - FIF at line 5") !=
                           std::string::npos;
        named_month |= message.find("DT_COMPTC 2026-08-31 is not of month 2026-09") != std::string::npos;
    }
    EXPECT_TRUE(named_duplicate) << summary.rejections.size();
    EXPECT_TRUE(named_month);

    EXPECT_EQ(db.One("SELECT count(*) FROM series_daily_series"), "3");
    EXPECT_EQ(db.One("SELECT quota FROM series_daily_value v JOIN series_daily_series s ON s.id = v.series_id"
                     " WHERE s.cnpj = '00017024000153' AND v.day = 20260902"),
              "1.100100");
    EXPECT_EQ(db.One("SELECT quota FROM series_daily_value v JOIN series_daily_series s ON s.id = v.series_id"
                     " WHERE s.cnpj = '11222333000181' AND s.subclass = '' AND v.day = 20260901"),
              "2.000000000001");
    EXPECT_EQ(
        db.One("SELECT fund_type FROM series_daily_series WHERE cnpj = '11222333000181' AND subclass = ''"),
        "CLASSES - FIF");
    const sdk::SqlRows nulls = db.Rows(
        "SELECT total, quota, net_worth, subscriptions, redemptions, investors FROM series_daily_value"
        " WHERE day = 20260903");
    ASSERT_EQ(nulls.size(), 1u);
    for (const auto& value : nulls[0]) {
        EXPECT_EQ(value, std::nullopt);
    }
    EXPECT_EQ(db.One("SELECT series FROM series_daily_day WHERE day = 20260901"), "3");
    EXPECT_EQ(db.One("SELECT source FROM series_daily_month WHERE month = 202609"),
              "inf_diario_fi_202609.zip:inf_diario_fi_202609.csv");
}

TEST(InfDiarioIngesterTest, ARepublishedMonthReplacesTheStoredOneAndKeepsWhatItReplaced) {
    DailyDatabase db;
    const std::string first = kClasses + Row("CLASSES - FIF", kFundA, "", "2026-09-01", "1.1") +
                              Row("CLASSES - FIF", kFundA, "", "2026-09-02", "1.2") +
                              Row("CLASSES - FIF", kFundB, "", "2026-09-01", "2.0");
    db.Ingest({db.Csv("inf_diario_fi_202609.csv", first)}, kFirstDay);
    const std::string series_a = db.One("SELECT id FROM series_daily_series WHERE cnpj = '00017024000153'");

    // CVM republishes: A's 2nd changes, B's 1st is gone, B's 2nd arrives, A's 1st is the same.
    const std::string second = kClasses + Row("CLASSES - FIF", kFundA, "", "2026-09-01", "1.1") +
                               Row("CLASSES - FIF", kFundA, "", "2026-09-02", "1.25") +
                               Row("CLASSES - FIF", kFundB, "", "2026-09-02", "2.1");
    const sdk::IngestSummary summary =
        db.Ingest({db.Zip("inf_diario_fi_202609.zip", {{"inf_diario_fi_202609.csv", second}})}, kLaterDay);
    EXPECT_EQ(summary.inserted, 1u);
    EXPECT_EQ(summary.updated, 1u);
    EXPECT_EQ(summary.unchanged, 1u);
    EXPECT_EQ(summary.removed, 1u);

    // Ids are stable; the unchanged row keeps its marks, the changed one is of vintage 2.
    EXPECT_EQ(db.One("SELECT id FROM series_daily_series WHERE cnpj = '00017024000153'"), series_a);
    const sdk::SqlRows rows = db.Rows(
        "SELECT s.cnpj, v.day, v.quota, v.first_seen, v.changed FROM series_daily_value v"
        " JOIN series_daily_series s ON s.id = v.series_id ORDER BY s.cnpj, v.day");
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0],
              (std::vector<std::optional<std::string>>{"00017024000153", "20260901", "1.1", "1", "1"}));
    EXPECT_EQ(rows[1],
              (std::vector<std::optional<std::string>>{"00017024000153", "20260902", "1.25", "1", "2"}));
    EXPECT_EQ(rows[2],
              (std::vector<std::optional<std::string>>{"11222333000181", "20260902", "2.1", "2", "2"}));
    const sdk::SqlRows revisions = db.Rows(
        "SELECT s.cnpj, r.day, r.quota, r.served_from, r.replaced_by, r.removed FROM series_daily_revision r"
        " JOIN series_daily_series s ON s.id = r.series_id ORDER BY s.cnpj, r.day");
    ASSERT_EQ(revisions.size(), 2u);
    EXPECT_EQ(revisions[0],
              (std::vector<std::optional<std::string>>{"00017024000153", "20260902", "1.2", "1", "2", "0"}));
    EXPECT_EQ(revisions[1],
              (std::vector<std::optional<std::string>>{"11222333000181", "20260901", "2.0", "1", "2", "1"}));
    EXPECT_EQ(db.One("SELECT served_day FROM series_daily_vintage WHERE id = 2"), "20260927");

    // The same file again changes nothing.
    const sdk::IngestSummary again = db.Ingest(
        {db.Zip("inf_diario_fi_202609.zip", {{"inf_diario_fi_202609.csv", second}})}, kLaterDay + 60);
    EXPECT_EQ(again.unchanged, 3u);
    EXPECT_EQ(again.inserted + again.updated + again.removed, 0u);
    EXPECT_EQ(again.periods, std::vector<std::string>{});
    EXPECT_EQ(db.One("SELECT count(*) FROM series_daily_revision"), "2");
    if (db.GetBackend() == sdk::testing::Backend::kPostgres) {
        // The month is a partition of its own.
        EXPECT_EQ(db.One("SELECT count(*) FROM series_daily_value_p202609"), "3");
    }
}

TEST(InfDiarioIngesterTest, ReadsAYearsArchiveAndTheLegacyLayout) {
    DailyDatabase db;
    const std::string january =
        kLegacy + "FI;" + kFundA + ";2023-01-02;10.00;1.000000000000;10.00;0.00;0.00;3\n";
    const std::string february =
        kLegacy + "FI;" + kFundA + ";2023-02-01;10.00;1.010000000000;10.10;0.00;0.00;3\n";
    const sdk::IngestSummary summary =
        db.Ingest({db.Zip("inf_diario_fi_2023.zip",
                          {{"inf_diario_fi_202301.csv", january}, {"inf_diario_fi_202302.csv", february}})});
    EXPECT_EQ(summary.inserted, 2u);
    EXPECT_EQ(summary.periods, (std::vector<std::string>{"2023-01", "2023-02"}));
    EXPECT_EQ(db.One("SELECT fund_type FROM series_daily_series"), "FI");
    EXPECT_EQ(db.One("SELECT count(*) FROM series_daily_month"), "2");
}

TEST(InfDiarioIngesterTest, RefusesWhatIsNotTheDatasetAndLeavesTheDatabaseAsItWas) {
    DailyDatabase db;
    db.Ingest({db.Csv("inf_diario_fi_202609.csv",
                      kClasses + Row("CLASSES - FIF", kFundA, "", "2026-09-01", "1.1"))});
    const auto refused = [&](const std::vector<fs::path>& files, const std::string& expected) {
        try {
            db.Ingest(files);
            ADD_FAILURE() << "accepted; expected " << expected;
        } catch (const sdk::IngestError& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
    };
    refused({db.Csv("cda_fi_202609.csv", kClasses)}, "not a file of cvm.inf_diario_fi");
    refused({db.Csv("inf_diario_fi_202609.csv", "CNPJ;DT\n1;2\n")}, "missing column");
    refused({db.Zip("inf_diario_fi_2024.zip", {{"inf_diario_fi_202301.csv", kClasses}})},
            "is not of year 2024 of the archive");
    refused({db.Csv("inf_diario_fi_202301.csv", kLegacy),
             db.Zip("inf_diario_fi_2023.zip", {{"inf_diario_fi_202301.csv", kLegacy}})},
            "given twice");
    // A second file whose header is broken fails the ingest after the first was staged: nothing
    // of either is written.
    refused(
        {db.Csv("inf_diario_fi_202610.csv", kClasses + Row("CLASSES - FIF", kFundA, "", "2026-10-01", "9.9")),
         db.Csv("inf_diario_fi_202611.csv", "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE\n")},
        "missing column");
    EXPECT_EQ(db.One("SELECT count(*) FROM series_daily_value"), "1");
    EXPECT_EQ(db.One("SELECT count(*) FROM series_daily_vintage"), "1");
}

}  // namespace
}  // namespace lastro::series
