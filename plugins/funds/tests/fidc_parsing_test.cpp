// The pieces of the FIDC ingester that read CVM's text: numbers, member names, series labels
// (seniority) and operation kinds.
#include "domain/fidc/fidc_series_label.hpp"
#include "domain/fidc/fidc_tables.hpp"
#include "ingest/inf_mensal_fidc/fidc_numbers.hpp"
#include "ingest/inf_mensal_fidc/fidc_row_store.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::funds {
namespace {

TEST(FidcNumbers, PlainDecimalsWithAPointAreNumbers) {
    for (const auto& [text, value] :
         std::vector<std::pair<std::string, double>>{{"123.45", 123.45},
                                                     {"-50000.00", -50000.0},
                                                     {"0", 0.0},
                                                     {"0.0", 0.0},
                                                     {" 12.5 ", 12.5},
                                                     {"007", 7.0},
                                                     {"44.275588000000", 44.275588}}) {
        const ParsedDecimal parsed = ParseFidcDecimal(text);
        EXPECT_EQ(parsed.status, NumberStatus::kValue) << text;
        EXPECT_DOUBLE_EQ(parsed.value, value) << text;
    }
}

TEST(FidcNumbers, AnEmptyFieldIsEmptyNeverZero) {
    EXPECT_EQ(ParseFidcDecimal("").status, NumberStatus::kEmpty);
    EXPECT_EQ(ParseFidcDecimal("   ").status, NumberStatus::kEmpty);
    EXPECT_FALSE(DecimalOrNull("").has_value());
    EXPECT_FALSE(IntegerOrNull("").has_value());
}

TEST(FidcNumbers, EverythingElseIsInvalid) {
    for (const char* text : {"1.234,56", "1,5", "1e5", "1E5", "+1", ".5", "5.", "NaN", "inf", "--1", "1.2.3",
                             "-", "12 345", "R$ 10", "0x10"}) {
        EXPECT_EQ(ParseFidcDecimal(text).status, NumberStatus::kInvalid) << text;
    }
}

TEST(FidcNumbers, TheStatusAloneAgreesWithTheParser) {
    std::vector<std::string> texts = {"123.45", "-50000.00", "0",  " 12.5 ", "",  "   ", "1.234,56", "1e5",
                                      "+1",     ".5",        "5.", "NaN",    "-", "inf", "12 345"};
    // Around the length up to which no conversion can fail, and conversions that do fail.
    texts.push_back(std::string(300, '9'));
    texts.push_back("-" + std::string(299, '9'));
    texts.push_back("0." + std::string(297, '0') + "1");
    texts.push_back(std::string(301, '9'));
    texts.push_back("1" + std::string(400, '0'));                          // beyond the largest double
    texts.push_back("1" + std::string(400, '0') + ".5");                   // likewise
    texts.push_back("0." + std::string(400, '0') + "1");                   // below the smallest double
    texts.push_back("0." + std::string(400, '0'));                         // a long zero
    texts.push_back(std::string(350, '1') + "." + std::string(350, 'x'));  // not a number at all
    for (const std::string& text : texts) {
        EXPECT_EQ(FidcDecimalStatus(text), ParseFidcDecimal(text).status) << text.substr(0, 20) << "...";
    }
    EXPECT_EQ(FidcDecimalStatus(std::string(300, '9')), NumberStatus::kValue);
    EXPECT_EQ(FidcDecimalStatus("1" + std::string(400, '0')), NumberStatus::kInvalid);
}

TEST(FidcNumbers, CountsMustBeIntegral) {
    EXPECT_EQ(ParseFidcInteger("12").value, 12);
    EXPECT_EQ(ParseFidcInteger("12.00").status, NumberStatus::kValue);
    EXPECT_EQ(ParseFidcInteger("12.00").value, 12);
    EXPECT_EQ(ParseFidcInteger("12.5").status, NumberStatus::kInvalid);
    EXPECT_EQ(ParseFidcInteger("doze").status, NumberStatus::kInvalid);
    EXPECT_EQ(ParseFidcInteger("").status, NumberStatus::kEmpty);
}

TEST(FidcMemberNames, TablesAreMatchedExactlySoX1AndX11NeverMix) {
    const FidcMemberName x1 = ParseMemberName("inf_mensal_fidc_tab_X_1_202401.csv");
    ASSERT_EQ(x1.kind, FidcMemberName::Kind::kTable);
    EXPECT_EQ(x1.table, FidcTable::kX1);
    EXPECT_EQ(x1.year, 2024);
    EXPECT_EQ(x1.month, 1);
    const FidcMemberName x11 = ParseMemberName("inf_mensal_fidc_tab_X_1_1_202401.csv");
    ASSERT_EQ(x11.kind, FidcMemberName::Kind::kTable);
    EXPECT_EQ(x11.table, FidcTable::kX1_1);
    EXPECT_EQ(ParseMemberName("inf_mensal_fidc_tab_VIII_202607.csv").table, FidcTable::kVIII);
    EXPECT_EQ(ParseMemberName("inf_mensal_fidc_tab_I_202401.csv").table, FidcTable::kI);
    EXPECT_EQ(ParseMemberName("DADOS/inf_mensal_fidc_tab_IV_202401.csv").table, FidcTable::kIV);
}

TEST(FidcMemberNames, YearlyMembersCarryOnlyTheYear) {
    const FidcMemberName yearly = ParseMemberName("inf_mensal_fidc_tab_X_2_2019.csv");
    ASSERT_EQ(yearly.kind, FidcMemberName::Kind::kTable);
    EXPECT_EQ(yearly.table, FidcTable::kX2);
    EXPECT_EQ(yearly.year, 2019);
    EXPECT_EQ(yearly.month, 0);
}

TEST(FidcMemberNames, OtherNamesAreNotTables) {
    EXPECT_EQ(ParseMemberName("inf_mensal_fidc_tab_XI_202401.csv").kind, FidcMemberName::Kind::kUnknownTable);
    EXPECT_EQ(ParseMemberName("inf_mensal_fidc_tab_x_1_202401.csv").kind,
              FidcMemberName::Kind::kUnknownTable);
    for (const char* name : {"LEIAME.txt", "inf_mensal_fidc_tab_I_202413.csv", "inf_mensal_fidc_tab_I_24.csv",
                             "inf_mensal_fidc_tab_I_202401.txt", "inf_mensal_fidc_202401.zip",
                             "meta_inf_mensal_fidc_tab_I.txt", "inf_mensal_fidc_tab__202401.csv"}) {
        EXPECT_EQ(ParseMemberName(name).kind, FidcMemberName::Kind::kOther) << name;
    }
}

TEST(FidcTables, EveryMonthNeedsFifteenTablesAndThreeAreOptional) {
    std::set<std::string_view> optional;
    std::size_t required = 0;
    for (const FidcTableInfo& info : FidcTables()) {
        if (info.required) {
            ++required;
        } else {
            optional.insert(info.name);
        }
    }
    EXPECT_EQ(required, 15u);
    EXPECT_EQ(optional, (std::set<std::string_view>{"X_1_1", "X_7", "VIII"}));
}

TEST(FidcFilerTypes, ClasseAndFundoInAnyCaseBlankAndOthers) {
    EXPECT_EQ(FilerKindOf("Classe"), FilerKind::kClasse);
    EXPECT_EQ(FilerKindOf("CLASSE"), FilerKind::kClasse);
    EXPECT_EQ(FilerKindOf("Fundo"), FilerKind::kFundo);
    EXPECT_EQ(FilerKindOf(""), FilerKind::kBlank);
    EXPECT_EQ(FilerKindOf("FI"), FilerKind::kOther);
}

TEST(FidcSeriesLabels, FoldingIgnoresCaseAccentsAndSpacing) {
    EXPECT_EQ(FoldLabel("Subclasse  Sênior "), "subclasse senior");
    EXPECT_EQ(FoldLabel(" Subclasse Subordinada  |"), "subclasse subordinada |");
    EXPECT_EQ(FoldLabel("CAPTAÇÕES NO MÊS"), "captacoes no mes");
    EXPECT_EQ(FoldLabel(""), "");
}

// The labels FORMATS 1.4 quotes, and a few spellings around them.
TEST(FidcSeriesLabels, SeniorityOfTheLabelsOfFormats) {
    const std::map<std::string, std::string> expected = {
        {"Subclasse Senior Série 1", "senior"},
        {"Subclasse Subordinada Cota Mezanino | Serie 1", "mezzanine"},
        {"Subclasse Subordinada Sub | Subordinada 1", "subordinated"},
        {"Classe Sênior", "senior"},
        {"Sênior", "senior"},
        {"Subordinada Mezanino", "mezzanine"},
        {"Subordinada Júnior", "subordinated"},
        {"SÊNIOR", "senior"},
        {"Cota Mezzanine B", "mezzanine"},
        {"Junior", "subordinated"},
        {"Série Única", "unknown"},
        {"", "unknown"},
    };
    for (const auto& [label, seniority] : expected) {
        EXPECT_EQ(SeniorityOf(label), seniority) << label;
    }
}

// Every distinct TAB_X_CLASSE_SERIE of the real rows in
// ../shared/datasets/real/fidc_inf_mensal_derived/ (tables X_2 and X_4, 2023-10..2023-12).
const std::map<std::string, std::string>& RealLabels() {
    static const std::map<std::string, std::string> kLabels = {
        {"Subclasse Senior", "senior"},
        {"Subclasse Senior 0", "senior"},
        {"Subclasse Senior 1", "senior"},
        {"Subclasse Senior 1 Sênior", "senior"},
        {"Subclasse Senior Serie 1", "senior"},
        {"Subclasse Senior Serie 2", "senior"},
        {"Subclasse Senior Serie 3", "senior"},
        {"Subclasse Senior Serie Unica", "senior"},
        {"Subclasse Senior Série 1", "senior"},
        {"Subclasse Senior Série 2", "senior"},
        {"Subclasse Senior Série 4", "senior"},
        {"Subclasse Subordinada  |", "subordinated"},
        {"Subclasse Subordinada  | 0", "subordinated"},
        {"Subclasse Subordinada  | 1 Subordinada", "subordinated"},
        {"Subclasse Subordinada  | 1 Subordinada CONSOLIDADA", "subordinated"},
        {"Subclasse Subordinada 0 | 0", "subordinated"},
        {"Subclasse Subordinada Cota Mezanino | Serie 0", "mezzanine"},
        {"Subclasse Subordinada Cota Mezanino | Serie 1", "mezzanine"},
        {"Subclasse Subordinada Cota Mezanino | Serie 2", "mezzanine"},
        {"Subclasse Subordinada Cota Mezanino | Serie F", "mezzanine"},
        {"Subclasse Subordinada Sub | Subordinada 1", "subordinated"},
        {"Subclasse Subordinada Sub | Subordinada 2", "subordinated"},
        {"Subclasse Subordinada Sub | Subordinada 3", "subordinated"},
        {"Subclasse Subordinada Sub | Subordinada 4", "subordinated"},
        {"Subclasse Subordinada Tipo Subclasse | Subordinada 1", "subordinated"},
    };
    return kLabels;
}

TEST(FidcSeriesLabels, SeniorityOfRealLabels) {
    for (const auto& [label, seniority] : RealLabels()) {
        EXPECT_EQ(SeniorityOf(label), seniority) << label;
    }
}

// Column `from_end` counted from the end of a comma-separated line (the derived files are
// comma-separated and DENOM_SOCIAL may hold commas, the last columns never do).
std::vector<std::string> ColumnFromEnd(const std::filesystem::path& path, std::size_t from_end) {
    std::vector<std::string> values;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
            fields.push_back(line.substr(start, comma - start));
        }
        fields.push_back(line.substr(start));
        if (fields.size() >= from_end) {
            values.push_back(fields[fields.size() - from_end]);
        }
    }
    return values;
}

const std::filesystem::path kDerived =
    std::filesystem::path(LASTRO_SOURCE_DIR) / "../shared/datasets/real/fidc_inf_mensal_derived";

// When the real files are at hand, every label in them is one of RealLabels(), so the
// expectations above cover the whole file.
TEST(FidcSeriesLabels, TheRealFilesHoldNoOtherLabels) {
    const auto quotas = kDerived / "dupli_sem_tp_fundo_classe_cotas_valores.csv";
    const auto operations = kDerived / "dupli_sem_tp_fundo_classe_operacoes_estruturadas.csv";
    if (!std::filesystem::exists(quotas) || !std::filesystem::exists(operations)) {
        GTEST_SKIP() << "real files not present: " << kDerived;
    }
    std::size_t read = 0;
    for (const auto& path : {quotas, operations}) {
        for (const std::string& label : ColumnFromEnd(path, 4)) {  // TAB_X_CLASSE_SERIE
            ++read;
            ASSERT_TRUE(RealLabels().contains(label)) << path << ": " << label;
            EXPECT_EQ(SeniorityOf(label), RealLabels().at(label)) << label;
        }
    }
    EXPECT_EQ(read, 374u + 893u);
}

TEST(FidcOperationKinds, KindsOfThePublishedOperations) {
    const std::map<std::string, std::string> expected = {
        {"Captações no Mês", "subscription"},
        {"Resgates no Mês", "redemption"},
        {"Resgates Solicitados", "pending_redemption"},
        {"Amortizações", "amortization"},
        {"Amortizações no Mês", "amortization"},
        {"CAPTACOES NO MES", "subscription"},
        {"Resgate", "redemption"},
        {"Transferências", "other"},
        {"", "other"},
    };
    for (const auto& [published, kind] : expected) {
        EXPECT_EQ(OperationKindOf(published), kind) << published;
    }
}

TEST(FidcOperationKinds, EveryRealOperationHasAKnownKind) {
    const auto operations = kDerived / "dupli_sem_tp_fundo_classe_operacoes_estruturadas.csv";
    if (!std::filesystem::exists(operations)) {
        GTEST_SKIP() << "real file not present: " << operations;
    }
    std::map<std::string, std::size_t> kinds;
    for (const std::string& published : ColumnFromEnd(operations, 5)) {  // TAB_X_TP_OPER
        ++kinds[std::string(OperationKindOf(published))];
    }
    EXPECT_EQ(
        kinds,
        (std::map<std::string, std::size_t>{
            {"amortization", 245}, {"pending_redemption", 211}, {"redemption", 211}, {"subscription", 226}}));
}

}  // namespace
}  // namespace lastro::funds
