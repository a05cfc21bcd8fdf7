// `lastro sample --scale full`: the registry and one month of FIDC reports at the size of CVM's
// real files. Slower than the other sample tests (several seconds in a debug build).
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
    EXPECT_EQ(names,
              (std::vector<std::string>{"registro_fundo.csv", "registro_classe.csv", "registro_subclasse.csv",
                                        "registro_fundo_classe.zip", "inf_mensal_fidc_202608.zip"}));
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
    fs::remove_all(dir);
}

}  // namespace
}  // namespace lastro::funds::sample
