// Input discovery of the ingest kit: name patterns and periods, archives and loose files, and
// the refusals that name the file.
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/zip_archive.hpp>

#include <lastro/sdk/testing/temp_dir.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace lastro::sdk {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

constexpr std::time_t kModified = 1715941230;  // an even second: zip keeps DOS times

TEST(NamePattern, LiteralsIgnoreCaseAndPlaceholdersCapture) {
    const NamePattern tables("inf_mensal_fidc_tab_{NAME}_{PERIOD}.csv");
    auto x1 = tables.Matches("inf_mensal_fidc_tab_X_1_202401.csv");
    ASSERT_TRUE(x1);
    EXPECT_EQ(x1->name, "X_1");
    EXPECT_EQ(x1->period, (Period{2024, 1}));
    auto x11 = tables.Matches("INF_MENSAL_FIDC_TAB_X_1_1_2019.CSV");
    ASSERT_TRUE(x11);
    EXPECT_EQ(x11->name, "X_1_1");  // the name as written
    EXPECT_EQ(x11->period, (Period{2019, 0}));
    EXPECT_TRUE(tables.Matches("DADOS/inf_mensal_fidc_tab_IV_202401.csv"));  // the last component
    for (const char* name : {"inf_mensal_fidc_tab__202401.csv", "inf_mensal_fidc_tab_I_202413.csv",
                             "inf_mensal_fidc_tab_I_24.csv", "inf_mensal_fidc_tab_I_202401.txt", "LEIAME.txt",
                             "inf_mensal_fidc_tab_I_0001.csv"}) {
        EXPECT_FALSE(tables.Matches(name)) << name;
    }
    EXPECT_TRUE(tables.HasPeriod());
    EXPECT_FALSE(NamePattern("registro_fundo.csv").HasPeriod());
}

TEST(NamePattern, MonthsAndYearsAreStrict) {
    const NamePattern month("cda_fi_PL_{YYYYMM}.csv");
    EXPECT_EQ(month.Matches("cda_fi_pl_202406.csv")->period, (Period{2024, 6}));
    EXPECT_FALSE(month.Matches("cda_fi_PL_2024.csv"));
    EXPECT_FALSE(month.Matches("cda_fi_PL_202400.csv"));
    const NamePattern year("eventual_fi_{YYYY}.csv");
    EXPECT_EQ(year.Matches("eventual_fi_2024.csv")->period, (Period{2024, 0}));
    EXPECT_FALSE(year.Matches("eventual_fi_202406.csv"));
    EXPECT_FALSE(year.Matches("eventual_fi.csv"));
}

TEST(NamePattern, FormatsTheNameOfAPeriod) {
    EXPECT_EQ(NamePattern("cda_fi_BLC_3_{YYYYMM}.csv").Format(Period{2024, 6}), "cda_fi_BLC_3_202406.csv");
    EXPECT_EQ(NamePattern("eventual_fi_{YYYY}.csv").Format(Period{2024, 0}), "eventual_fi_2024.csv");
    EXPECT_EQ(NamePattern("x_{NAME}_{PERIOD}.csv").Format(Period{2019, 0}, "I"), "x_I_2019.csv");
    EXPECT_EQ(NamePattern("cda_fi_{YYYYMM}.zip").Format(), "cda_fi_YYYYMM.zip");
    EXPECT_EQ((Period{2024, 6}).Describe(), "month 2024-06");
    EXPECT_EQ((Period{2024, 0}).Describe(), "year 2024");
    EXPECT_EQ((Period{2024, 6}).Digits(), "202406");
}

TEST(NamePattern, PatternsWrittenWrongAreRefused) {
    EXPECT_THROW(NamePattern("a_{MONTH}.csv"), std::invalid_argument);
    EXPECT_THROW(NamePattern("a_{YYYY}_{YYYYMM}.csv"), std::invalid_argument);
    EXPECT_THROW(NamePattern("a_{YYYY.csv"), std::invalid_argument);
}

// A CDA-like dataset: PL and two blocks a month, an optional fie, archives cda_YYYYMM.zip.
DatasetLayout Cda() {
    DatasetLayout layout;
    layout.dataset = "test.cda";
    layout.expected = "cda_YYYYMM.zip or its members";
    layout.tables = {{"PL", NamePattern("cda_PL_{YYYYMM}.csv")},
                     {"BLC_1", NamePattern("cda_BLC_1_{YYYYMM}.csv")},
                     {"BLC_2", NamePattern("cda_BLC_2_{YYYYMM}.csv")},
                     {"fie", NamePattern("cda_fie_{YYYYMM}.csv"), false}};
    layout.archive = NamePattern("cda_{YYYYMM}.zip");
    return layout;
}

class DiscoveryTest : public ::testing::Test {
protected:
    fs::path Zip(const std::string& name, const std::vector<std::string>& members) {
        const fs::path path = dir_.Path() / name;
        ZipWriter zip(path);
        for (const std::string& member : members) {
            zip.Add(member, "a;b\n", kModified);
        }
        zip.Close();
        return path;
    }
    fs::path Loose(const std::string& name) { return dir_.Write(name, "a;b\n"); }

    // The message of the IngestError discovering (and checking) `inputs` throws.
    std::string Refusal(const std::vector<fs::path>& inputs, const DatasetLayout& layout,
                        const std::function<void(const DatasetFiles&)>& check = {}) {
        try {
            const IngestInputs opened(inputs);
            const DatasetFiles files(opened, layout);
            if (check) {
                check(files);
            }
        } catch (const IngestError& error) {
            return error.what();
        }
        return "(no error)";
    }

    TempDir dir_;
};

TEST_F(DiscoveryTest, ArchivesAndLooseMembersMix) {
    const IngestInputs inputs(
        {Zip("cda_202406.zip",
             {"cda_PL_202406.csv", "cda_BLC_1_202406.csv", "cda_BLC_2_202406.csv", "LEIAME.txt", "DADOS/"}),
         Loose("cda_PL_202407.csv"), Loose("cda_BLC_2_202407.csv"), Loose("CDA_BLC_1_202407.CSV")});
    EXPECT_TRUE(inputs.IsArchive(0));
    EXPECT_EQ(inputs.Files().size(), 4u + 3u);
    EXPECT_EQ(inputs.Files()[0].display, "cda_202406.zip:cda_PL_202406.csv");
    EXPECT_EQ(inputs.ModifiedAt(inputs.Files()[0]), kModified);
    EXPECT_TRUE(inputs.ModifiedAt(inputs.Files()[5]));
    EXPECT_EQ(inputs.Open(inputs.Files()[4])->Name(), "cda_PL_202407.csv");

    const DatasetFiles files(inputs, Cda());
    EXPECT_EQ(files.Tables().size(), 6u);
    EXPECT_EQ(files.Ignored(), (std::vector<std::string>{"cda_202406.zip:LEIAME.txt"}));
    EXPECT_EQ(files.Periods(), (std::vector<Period>{{2024, 6}, {2024, 7}}));
    const auto july = files.TablesOf(Period{2024, 7});
    ASSERT_EQ(july.size(), 3u);
    EXPECT_EQ(files.Spec(*july[0]).id, "PL");  // in the layout's order, not the inputs'
    EXPECT_EQ(files.Spec(*july[1]).id, "BLC_1");
    EXPECT_EQ(july[1]->file.name, "CDA_BLC_1_202407.CSV");
    files.RefuseRepeats();
    files.RequireComplete();
}

TEST_F(DiscoveryTest, UnknownLooseFilesAreRefusedNamingThem) {
    EXPECT_EQ(Refusal({Loose("cda_XYZ_202406.csv")}, Cda()),
              "cda_XYZ_202406.csv: not a file of test.cda (expected cda_YYYYMM.zip or its members)");
    DatasetLayout custom = Cda();
    custom.refusal = "the file name carries no month";
    EXPECT_EQ(Refusal({Loose("cda.csv")}, custom), "cda.csv: the file name carries no month");
    DatasetLayout with_ignored = Cda();
    with_ignored.ignored = {NamePattern("cda_{NAME}_{YYYYMM}.csv")};
    const IngestInputs inputs({Loose("cda_XYZ_202406.csv"), Loose("cda_PL_202406.csv")});
    EXPECT_EQ(DatasetFiles(inputs, with_ignored).Ignored(), (std::vector<std::string>{"cda_XYZ_202406.csv"}));
}

TEST_F(DiscoveryTest, MissingMembersAreNamedWithThePeriod) {
    EXPECT_EQ(Refusal({Zip("cda_202406.zip", {"cda_BLC_1_202406.csv"})}, Cda(),
                      [](const DatasetFiles& f) { f.RequireComplete(); }),
              "cda_202406.zip: month 2024-06 is incomplete: missing cda_PL_202406.csv, cda_BLC_2_202406.csv");
    EXPECT_EQ(
        Refusal({Loose("cda_PL_202406.csv")}, Cda(), [](const DatasetFiles& f) { f.RequireComplete(); }),
        "cda_PL_202406.csv: month 2024-06 is incomplete: missing cda_BLC_1_202406.csv, cda_BLC_2_202406.csv");
    EXPECT_EQ(Refusal({}, Cda(), [](const DatasetFiles& f) { f.RequireComplete(); }),
              "test.cda: no input files");
}

TEST_F(DiscoveryTest, AnArchiveKeepsThePromiseOfItsName) {
    EXPECT_EQ(
        Refusal({Zip("cda_202406.zip", {"cda_PL_202405.csv"})}, Cda()),
        "cda_202406.zip: missing members cda_PL_202406.csv, cda_BLC_1_202406.csv, cda_BLC_2_202406.csv");
    EXPECT_EQ(Refusal({Zip("cda_202406.zip", {"cda_PL_202406.csv", "cda_BLC_1_202405.csv"})}, Cda()),
              "cda_202406.zip: member cda_BLC_1_202405.csv is not of month 2024-06 of the archive");
    EXPECT_EQ(Refusal({Zip("other.zip", {"LEIAME.txt"})}, Cda()),
              "other.zip: no member of test.cda in the archive (expected cda_YYYYMM.zip or its members)");
    DatasetLayout named = Cda();
    named.archive_name_required = true;
    EXPECT_EQ(Refusal({Zip("other.zip", {"cda_PL_202406.csv"})}, named),
              "other.zip: not a file of test.cda (expected cda_YYYYMM.zip or its members)");
}

TEST_F(DiscoveryTest, ATableGivenTwiceIsRefused) {
    const fs::path a =
        Zip("cda_202406.zip", {"cda_PL_202406.csv", "cda_BLC_1_202406.csv", "cda_BLC_2_202406.csv"});
    fs::create_directory(dir_.Path() / "again");
    const fs::path b = dir_.Path() / "again" / "cda_202406.zip";
    fs::copy_file(a, b);
    EXPECT_EQ(Refusal({a, b}, Cda(), [](const DatasetFiles& f) { f.RefuseRepeats(); }),
              "cda_PL_202406.csv: given twice (in cda_202406.zip and cda_202406.zip)");
    EXPECT_EQ(
        Refusal({a, Loose("cda_BLC_2_202406.csv")}, Cda(), [](const DatasetFiles& f) { f.RefuseRepeats(); }),
        "cda_BLC_2_202406.csv: given twice (in cda_202406.zip and cda_BLC_2_202406.csv)");
}

TEST_F(DiscoveryTest, TablesWithoutPeriod) {
    DatasetLayout registry;
    registry.dataset = "test.registry";
    registry.expected = "registry.zip or its three CSV files";
    registry.tables = {{"fund", NamePattern("fund.csv")},
                       {"class", NamePattern("class.csv")},
                       {"subclass", NamePattern("subclass.csv")}};
    const auto complete = [](const DatasetFiles& f) { f.RequireComplete(); };
    EXPECT_EQ(Refusal({Zip("registry.zip", {"fund.csv", "class.csv"})}, registry, complete),
              "registry.zip: missing subclass.csv");
    EXPECT_EQ(Refusal({Loose("fund.csv"), Loose("subclass.csv")}, registry, complete),
              "test.registry: missing class.csv");
    EXPECT_EQ(Refusal({Zip("registry.zip", {"fund.csv", "class.csv", "subclass.csv"})}, registry, complete),
              "(no error)");
}

TEST_F(DiscoveryTest, ADamagedArchiveIsNamed) {
    const fs::path zip = Zip("cda_202406.zip", {"cda_PL_202406.csv"});
    fs::resize_file(zip, fs::file_size(zip) / 2);
    EXPECT_NE(Refusal({zip}, Cda()).find("cda_202406.zip"), std::string::npos);
    EXPECT_NE(Refusal({dir_.Path() / "absent.zip"}, Cda()).find("absent.zip: cannot open"),
              std::string::npos);
}

}  // namespace
}  // namespace lastro::sdk
