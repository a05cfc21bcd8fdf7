// `lastro sample --scale full`: the registry, one month of FIDC reports and of CDA, the documents
// and the ANBIMA subclasses at the size of CVM's real files. Slower than the other sample tests
// (several seconds in a debug build).
#include "sample/cda_writer.hpp"
#include "sample_test_support.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::funds::sample {
namespace {

namespace fs = std::filesystem;
using testing::ParsedCsv;
using testing::ParseLatin1Csv;
using Row = std::vector<std::string>;

TEST(FullScaleSampleTest, OneMonthOfFidcReportsAtTheRealSize) {
    const fs::path dir = fs::temp_directory_path() / ("lastro-sample-full-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const WrittenSample report = WriteSample({dir, kDefaultSeed, sdk::SampleScale::kFull});

    std::vector<std::string> names;
    for (const fs::path& file : report.files) {
        names.push_back(file.filename().string());
    }
    EXPECT_EQ(names, (std::vector<std::string>{
                         "registro_fundo.csv", "registro_classe.csv", "registro_subclasse.csv",
                         "registro_fundo_classe.zip", "inf_mensal_fidc_202608.zip", "cda_fi_202608.zip",
                         "eventual_fi_2025.csv", "eventual_fi_2026.csv", "anbima_subclasses.csv"}));
    const auto size = fs::file_size(dir / "inf_mensal_fidc_202608.zip");
    EXPECT_GT(size, 2'600'000u);  // the real monthly zips: 2.6 to 3.5 MB
    EXPECT_LT(size, 3'600'000u);

    // About 3,000 FIDC-family classes in the registry, and about as many reporting.
    const ParsedCsv funds = ParseLatin1Csv(testing::ReadBytes(dir / "registro_fundo.csv"));
    const ParsedCsv classes = ParseLatin1Csv(testing::ReadBytes(dir / "registro_classe.csv"));
    std::set<std::string> fidc_funds;
    std::set<std::string> other_types;
    for (const Row& row : funds.rows) {
        const std::string& type = row[funds.Column("Tipo_Fundo")];
        if (type == "FIDC" || type == "FIDC-NP" || type == "FIC-FIDC") {
            fidc_funds.insert(row[funds.Column("ID_Registro_Fundo")]);
        } else {
            other_types.insert(type);
        }
    }
    std::size_t fidc_classes = 0;
    for (const Row& row : classes.rows) {
        fidc_classes += fidc_funds.count(row[classes.Column("ID_Registro_Fundo")]);
    }
    EXPECT_GT(fidc_classes, 2'800u);
    EXPECT_LT(fidc_classes, 3'600u);
    EXPECT_EQ(other_types.size(), 4u);

    sdk::ZipArchive zip(dir / "inf_mensal_fidc_202608.zip");
    EXPECT_EQ(zip.Members().size(), 18u);
    const ParsedCsv iv = ParseLatin1Csv(
        testing::ReadMember(dir / "inf_mensal_fidc_202608.zip", "inf_mensal_fidc_tab_IV_202608.csv"));
    std::set<std::string> reporting;
    for (const Row& row : iv.rows) {
        if (row[0] == "Classe") {
            reporting.insert(row[1]);
        }
    }
    EXPECT_GT(reporting.size(), 2'700u);
    EXPECT_LT(reporting.size(), 3'300u);
    EXPECT_EQ(report.fidc_reports, reporting.size());
    for (const std::string& member : zip.Members()) {
        const ParsedCsv csv = ParseLatin1Csv(testing::ReadMember(dir / "inf_mensal_fidc_202608.zip", member));
        EXPECT_GT(csv.rows.size(), reporting.size() / 4) << member;
    }

    // The CDA month: the FIDC universe's holders and the real file's 25,534 others (FORMATS §4).
    const fs::path cda_zip = dir / "cda_fi_202608.zip";
    const ParsedCsv pl = ParseLatin1Csv(testing::ReadMember(cda_zip, "cda_fi_PL_202608.csv"));
    std::map<std::string, std::size_t> holders_by_type;
    std::set<std::string> holder_cnpjs;
    for (const Row& row : pl.rows) {
        ++holders_by_type[row[pl.Column("TP_FUNDO_CLASSE")]];
        EXPECT_TRUE(holder_cnpjs.insert(row[pl.Column("CNPJ_FUNDO_CLASSE")]).second) << row[1];
    }
    EXPECT_EQ(holders_by_type["CLASSES - FIF"], kOtherFifHolders);
    EXPECT_EQ(holders_by_type["CLASSES - FIP"], kOtherFipHolders);
    EXPECT_EQ(holders_by_type["FI"], kOtherFiHolders);
    EXPECT_GT(holders_by_type["CLASSES - FIDC"], 300u);  // the universe's FIC-FIDCs and FIDCs with securities
    std::size_t positions = 0;
    for (int block = 1; block <= 8; ++block) {
        const std::string member = "cda_fi_BLC_" + std::to_string(block) + "_202608.csv";
        const ParsedCsv csv = ParseLatin1Csv(testing::ReadMember(cda_zip, member));
        positions += csv.rows.size();
        for (const Row& row : csv.rows) {
            ASSERT_TRUE(holder_cnpjs.contains(row[csv.Column("CNPJ_FUNDO_CLASSE")])) << member;
        }
    }
    EXPECT_EQ(report.cda_positions, positions);
    EXPECT_GT(positions, 200'000u);  // about 9 a holder
    EXPECT_LT(positions, 300'000u);

    // Documents of every FIDC-family class and multi-class fund of the universe, ANBIMA codes of
    // every ranked subclass and single-class FIDC in operation.
    std::size_t documents = 0;
    for (const char* year : {"2025", "2026"}) {
        const ParsedCsv csv =
            ParseLatin1Csv(testing::ReadBytes(dir / ("eventual_fi_" + std::string(year) + ".csv")));
        documents += csv.rows.size();
    }
    EXPECT_EQ(report.documents, documents);
    EXPECT_GT(documents, 20'000u);
    const ParsedCsv anbima = ParseLatin1Csv(testing::ReadBytes(dir / "anbima_subclasses.csv"));
    std::set<std::string> codes;
    for (const Row& row : anbima.rows) {
        EXPECT_TRUE(codes.insert(row[anbima.Column("anbima_code")]).second);
    }
    EXPECT_EQ(report.anbima_rows, anbima.rows.size());
    EXPECT_GT(anbima.rows.size(), 2'000u);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace lastro::funds::sample
