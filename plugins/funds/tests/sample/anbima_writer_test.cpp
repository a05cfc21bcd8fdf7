// anbima_subclasses.csv: our own layout for the market association's subclasses.
#include "sample_test_support.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/text.hpp>

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

constexpr std::string_view kHeader =
    "anbima_code;class_cnpj;fund_cnpj;cvm_code;name;status;activity_started_at;first_subscription_at;"
    "category;"
    "type;focus;investor_type;investor_characteristic;opening_share;adapted_to_rcvm_175;"
    "minimum_initial_subscription_brl;redemption_payment_days";

std::vector<std::string> Split(std::string_view line) {
    return testing::SplitFields(line);
}

TEST(AnbimaSubclassesTest, OneRowPerRankedSubclassPlusSomeClasses) {
    DefaultSample& sample = DefaultSample::Get();
    const std::string& bytes = sample.Bytes("anbima_subclasses.csv");
    ASSERT_TRUE(sdk::IsValidUtf8(bytes)) << "UTF-8, not Latin-1";
    EXPECT_NE(bytes.find("Ê"), std::string::npos);
    EXPECT_EQ(bytes.find('\r'), std::string::npos);
    ASSERT_EQ(bytes.back(), '\n');

    // The registry: which class each subclass belongs to, and fund of each class.
    const ParsedCsv& funds = sample.File("registro_fundo.csv");
    const ParsedCsv& classes = sample.File("registro_classe.csv");
    const ParsedCsv& subclasses = sample.File("registro_subclasse.csv");
    std::map<std::string, std::string> fund_cnpj;
    std::map<std::string, std::string> fund_type;
    for (const Row& row : funds.rows) {
        fund_cnpj[row[funds.Column("ID_Registro_Fundo")]] = row[funds.Column("CNPJ_Fundo")];
        fund_type[row[funds.Column("ID_Registro_Fundo")]] = row[funds.Column("Tipo_Fundo")];
    }
    std::map<std::string, std::string> class_cnpj;     // by ID_Registro_Classe
    std::map<std::string, std::string> fund_of_class;  // by CNPJ_Classe
    std::map<std::string, std::string> type_of_class;
    for (const Row& row : classes.rows) {
        const std::string& fund = row[classes.Column("ID_Registro_Fundo")];
        class_cnpj[row[classes.Column("ID_Registro_Classe")]] = row[classes.Column("CNPJ_Classe")];
        fund_of_class[row[classes.Column("CNPJ_Classe")]] = fund_cnpj[fund];
        type_of_class[row[classes.Column("CNPJ_Classe")]] = fund_type[fund];
    }
    std::map<std::string, std::string> class_of_code;  // subclass Codigo_CVM -> CNPJ_Classe
    std::set<std::string> ranked;
    std::set<std::string> classes_with_subclasses;
    for (const Row& row : subclasses.rows) {
        const std::string& cnpj = class_cnpj[row[subclasses.Column("ID_Registro_Classe")]];
        class_of_code[row[subclasses.Column("Codigo_CVM")]] = cnpj;
        classes_with_subclasses.insert(cnpj);
        const std::string& type = type_of_class[cnpj];
        if (type == "FIDC" || type == "FIDC-NP" || type == "FIC-FIDC") {
            ranked.insert(row[subclasses.Column("Codigo_CVM")]);
        }
    }

    std::size_t start = bytes.find('\n');
    EXPECT_EQ(bytes.substr(0, start), kHeader);
    std::set<std::string> codes;
    std::set<std::string> listed_subclasses;
    std::size_t class_rows = 0;
    std::map<std::size_t, std::size_t> empties;
    for (++start; start < bytes.size();) {
        const std::size_t end = bytes.find('\n', start);
        const Row row = Split(std::string_view(bytes).substr(start, end - start));
        start = end + 1;
        ASSERT_EQ(row.size(), 17u);
        EXPECT_EQ(row[0].size(), 6u);
        EXPECT_EQ(row[0].find_first_not_of("0123456789"), std::string::npos);
        EXPECT_TRUE(codes.insert(row[0]).second) << "anbima_code " << row[0];
        for (std::size_t c : {1u, 2u}) {
            const auto parsed = sdk::ParseCnpj(row[c]);
            ASSERT_TRUE(parsed.digits);
            EXPECT_EQ(*parsed.digits, row[c]) << "bare 14 digits";
        }
        EXPECT_EQ(fund_of_class[row[1]], row[2]);
        if (row[3].empty()) {
            ++class_rows;
            EXPECT_FALSE(classes_with_subclasses.count(row[1]));
            EXPECT_EQ(type_of_class[row[1]], "FIDC");
        } else {
            EXPECT_EQ(class_of_code[row[3]], row[1]);
            listed_subclasses.insert(row[3]);
        }
        EXPECT_FALSE(row[4].empty());
        for (std::size_t c : {6u, 7u}) {
            EXPECT_TRUE(row[c].empty() || sdk::Date::Parse(row[c]).has_value()) << row[c];
        }
        EXPECT_EQ(row[8], "FIDC");
        EXPECT_TRUE(row[9] == "FIDC Fomento Mercantil" || row[9] == "FIDC Financeiro" ||
                    row[9] == "FIDC Agro, Indústria e Comércio" || row[9] == "FIDC Outros")
            << row[9];
        EXPECT_TRUE(row[11] == "Qualificado" || row[11] == "Profissional" || row[11] == "Geral");
        EXPECT_TRUE(row[12].empty() || row[12] == "Exclusivo" || row[12] == "Reservado" ||
                    row[12] == "Sem restrição");
        EXPECT_TRUE(row[13] == "Abertura" || row[13] == "Fechamento");
        EXPECT_TRUE(row[14] == "S" || row[14] == "N");
        if (!row[15].empty()) {
            EXPECT_EQ(row[15].find_first_not_of("0123456789."), std::string::npos);
            EXPECT_EQ(row[15].size() - row[15].find('.'), 3u);
        }
        EXPECT_EQ(row[16].find_first_not_of("0123456789"), std::string::npos);
        for (std::size_t c = 0; c < row.size(); ++c) {
            empties[c] += row[c].empty();
        }
    }
    EXPECT_EQ(listed_subclasses, ranked) << "every FIDC-family registry subclass";
    EXPECT_EQ(class_rows, 20u);
    EXPECT_EQ(codes.size(), sample.AnbimaRows());
    for (std::size_t c : {7u, 10u, 12u, 15u, 16u}) {
        EXPECT_GT(empties[c], 0u) << "column " << c << " is sometimes empty";
    }
}

}  // namespace
}  // namespace lastro::funds::sample
