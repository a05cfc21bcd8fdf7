// The documents (eventual_fi) of the default sample.
#include "sample_test_support.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::funds::sample {
namespace {

using testing::DefaultSample;
using testing::ParsedCsv;
using Row = std::vector<std::string>;

// Exactly real/cvm_headers/eventual_fi_header.csv.
constexpr std::string_view kHeader =
    "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;ID_SUBCLASSE;DT_COMPTC;DT_RECEB;TP_DOC;NM_ARQ;ID_DOC;"
    "LINK_ARQ;"
    "RESULTADO_AUDITORIA";

TEST(DocumentsTest, TwoYearsOfDocumentsAsPublished) {
    DefaultSample& sample = DefaultSample::Get();
    // The registry: FIDC-family classes and the funds that have more than one class.
    const ParsedCsv& funds = sample.File("registro_fundo.csv");
    const ParsedCsv& classes = sample.File("registro_classe.csv");
    const ParsedCsv& subclasses = sample.File("registro_subclasse.csv");
    std::map<std::string, std::string> fund_type;
    std::map<std::string, std::string> fund_cnpj;
    for (const Row& row : funds.rows) {
        fund_type[row[funds.Column("ID_Registro_Fundo")]] = row[funds.Column("Tipo_Fundo")];
        fund_cnpj[row[funds.Column("ID_Registro_Fundo")]] = sdk::FormatCnpj(row[funds.Column("CNPJ_Fundo")]);
    }
    std::set<std::string> fidc_classes;
    std::map<std::string, std::string> class_of_id;
    std::map<std::string, int> classes_of_fund;
    for (const Row& row : classes.rows) {
        const std::string& fund = row[classes.Column("ID_Registro_Fundo")];
        const std::string& type = fund_type[fund];
        if (type == "FIDC" || type == "FIDC-NP" || type == "FIC-FIDC") {
            fidc_classes.insert(sdk::FormatCnpj(row[classes.Column("CNPJ_Classe")]));
            ++classes_of_fund[fund_cnpj[fund]];
        }
        class_of_id[row[classes.Column("ID_Registro_Classe")]] =
            sdk::FormatCnpj(row[classes.Column("CNPJ_Classe")]);
    }
    std::map<std::string, std::string> subclass_class;
    for (const Row& row : subclasses.rows) {
        subclass_class[row[subclasses.Column("ID_Subclasse")]] =
            class_of_id[row[subclasses.Column("ID_Registro_Classe")]];
    }

    const std::set<std::string> types{"Regulamento",
                                      "Fato Relevante",
                                      "Comunicado ao Mercado",
                                      "Ata de Assembleia Geral",
                                      "Demonstrações Financeiras",
                                      "Relatório de Rating",
                                      "Convocação de Assembleia",
                                      "Material Publicitário"};
    std::set<std::string> ids;
    std::map<std::string, std::size_t> per_class;
    std::map<std::pair<std::string, int>, std::size_t> per_class_year;
    std::size_t fund_rows = 0;
    std::size_t with_subclass = 0;
    std::size_t audited = 0;
    for (int year : {2025, 2026}) {
        const std::string name = "eventual_fi_" + std::to_string(year) + ".csv";
        const std::string& bytes = sample.Bytes(name);
        EXPECT_EQ(bytes.find('\r'), std::string::npos);
        EXPECT_NE(bytes.find('\xE7'), std::string::npos) << "ç in Latin-1";
        const ParsedCsv& csv = sample.File(name);
        EXPECT_EQ(csv.header_line, kHeader);
        EXPECT_GT(csv.rows.size(), 300u);
        for (const Row& row : csv.rows) {
            ASSERT_EQ(row.size(), 11u);
            const std::string& cnpj = row[1];
            if (row[0] == "Fundo") {
                EXPECT_GT(classes_of_fund[cnpj], 1) << cnpj;
                ++fund_rows;
            } else {
                EXPECT_EQ(row[0], "Classe");
                EXPECT_TRUE(fidc_classes.count(cnpj)) << cnpj;
            }
            if (!row[3].empty()) {
                EXPECT_EQ(subclass_class[row[3]], cnpj);
                ++with_subclass;
            }
            const auto reference = sdk::Date::Parse(row[4]);
            const auto received = sdk::Date::Parse(row[5]);
            ASSERT_TRUE(reference && received);
            EXPECT_LE(*reference, *received);
            EXPECT_EQ(received->year, year);
            EXPECT_LT(*received, (sdk::Date{2026, 10, 14}));
            EXPECT_TRUE(types.count(row[6])) << row[6];
            EXPECT_FALSE(row[7].empty());
            EXPECT_TRUE(ids.insert(row[8]).second) << "ID_DOC " << row[8];
            EXPECT_EQ(row[8].find_first_not_of("0123456789"), std::string::npos);
            EXPECT_TRUE(row[9].starts_with("https://")) << row[9];
            EXPECT_NE(row[9].find(row[8]), std::string::npos);
            EXPECT_EQ(row[10].empty(), row[6] != "Demonstrações Financeiras") << row[6];
            audited += !row[10].empty();
            ++per_class[cnpj];
            ++per_class_year[{cnpj, year}];
        }
    }
    std::size_t busy = 0;
    for (const auto& [cnpj, count] : per_class) {
        busy += count >= 60;
    }
    EXPECT_EQ(busy, 1u) << "one class for pagination";
    std::size_t ordinary = 0;
    for (const auto& [key, count] : per_class_year) {
        ordinary += count <= 14;  // up to 12, plus the year's financial statements
    }
    EXPECT_GE(ordinary + 2, per_class_year.size());
    EXPECT_GT(fund_rows, 10u);
    EXPECT_GT(with_subclass, 0u);
    EXPECT_GT(audited, 100u);
    EXPECT_EQ(DefaultSample::Get().Documents(), ids.size());
}

}  // namespace
}  // namespace lastro::funds::sample
