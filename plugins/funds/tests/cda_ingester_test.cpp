#include "cda_test_files.hpp"
#include "ingest/cda_fi/cda_inputs.hpp"
#include "ingest/cda_fi/cda_seen_lines.hpp"

#include <lastro/sdk/problem.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <sstream>

namespace lastro::funds::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kA = "12.345.678/0001-95";
constexpr const char* kB = "33.333.333/0001-91";
constexpr const char* kC = "44.444.444/0001-91";
constexpr const char* kD = "55.555.555/0001-91";

Fields Holder(const char* cnpj, const char* name, const char* date = "2024-06-30") {
    return {{"TP_FUNDO_CLASSE", "CLASSES - FIF"},
            {"CNPJ_FUNDO_CLASSE", cnpj},
            {"DENOM_SOCIAL", name},
            {"DT_COMPTC", date}};
}

Fields With(Fields base, const Fields& more) {
    for (const auto& [key, value] : more) {
        base[key] = value;
    }
    return base;
}

// The base month (line numbers matter):
//   PL      2 A nav 1000000.50; 3 B "FUNDO BETA ANTIGO" 10.00; 4 B "FUNDO BETA" 20.00 (wins)
//   BLC_1   2 A LTN (CD_SELIC, TP_TITPUB, DT_EMISSAO)
//   BLC_2   2 A quotas of 66.666.666/0001-91
//   BLC_3   2 A swap, negative value
//   BLC_4   2 A PETR4; 3 A PETR4 lent (another TP_APLIC, kept); 4 = line 3 (collapsed); 5 C VALE3
//   BLC_5   2 A CDB of a bank (CNPJ_EMISSOR)
//   BLC_6   2 A CCB of a person (CPF in CPF_CNPJ_EMISSOR)
//   BLC_7   2 A foreign share (CD_ATIVO_BV_MERC, DS_ATIVO_EXTERIOR)
//   BLC_8   2 A receivables, every number empty
//   fie     2 A with CD_ATIVO and CD_SELIC
//   CONFID  2, 3 A; 4 D (a holder seen only here)      fie CONFID 2 A
CdaMonth BaseMonth() {
    CdaMonth m("202406");
    m.Row("cda_fi_PL", With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"VL_PATRIM_LIQ", "1000000.50"}}));
    m.Row("cda_fi_PL",
          With(Holder(kB, "FUNDO BETA ANTIGO"), {{"TP_FUNDO_CLASSE", "FI"}, {"VL_PATRIM_LIQ", "10.00"}}));
    m.Row("cda_fi_PL", With(Holder(kB, "FUNDO BETA"), {{"VL_PATRIM_LIQ", "20.00"}}));
    m.Row("cda_fi_BLC_1", With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"TP_APLIC", "Títulos Públicos"},
                                                                 {"TP_ATIVO", "Título público federal"},
                                                                 {"EMISSOR_LIGADO", "N"},
                                                                 {"TP_NEGOC", "Para negociação"},
                                                                 {"QT_VENDA_NEGOC", "0"},
                                                                 {"VL_VENDA_NEGOC", "0.00"},
                                                                 {"QT_AQUIS_NEGOC", "100"},
                                                                 {"VL_AQUIS_NEGOC", "95000.00"},
                                                                 {"QT_POS_FINAL", "1000"},
                                                                 {"VL_MERC_POS_FINAL", "950123.45"},
                                                                 {"VL_CUSTO_POS_FINAL", "940000.00"},
                                                                 {"TP_TITPUB", "LTN"},
                                                                 {"CD_ISIN", "BRSTNCLTN7X3"},
                                                                 {"CD_SELIC", "100000"},
                                                                 {"DT_EMISSAO", "2022-01-07"},
                                                                 {"DT_VENC", "2026-01-01"}}));
    m.Row("cda_fi_BLC_2",
          With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"TP_APLIC", "Cotas de Fundos"},
                                                 {"TP_ATIVO", "Cotas de fundos"},
                                                 {"QT_POS_FINAL", "5000.5"},
                                                 {"VL_MERC_POS_FINAL", "250000.00"},
                                                 {"CNPJ_FUNDO_CLASSE_COTA", "66.666.666/0001-91"},
                                                 {"NM_FUNDO_CLASSE_SUBCLASSE_COTA", "FIDC GAMA SÊNIOR"},
                                                 {"ID_SUBCLASSE", "SUB01"}}));
    m.Row("cda_fi_BLC_3", With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"TP_APLIC", "Operações com derivativos"},
                                                                 {"CD_SWAP", "SWP1"},
                                                                 {"DS_SWAP", "DI x PRÉ"},
                                                                 {"VL_MERC_POS_FINAL", "-1500.25"}}));
    const Fields lent =
        With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"TP_APLIC", "Ações e outros TVM cedidos em empréstimo"},
                                               {"TP_ATIVO", "Ação ordinária"},
                                               {"QT_POS_FINAL", "50"},
                                               {"VL_MERC_POS_FINAL", "1900.00"},
                                               {"CD_ATIVO", "PETR4"},
                                               {"DS_ATIVO", "PETROBRAS PN"},
                                               {"CD_ISIN", "BRPETRACNPR6"}});
    m.Row("cda_fi_BLC_4", With(lent, {{"TP_APLIC", "Ações"},
                                      {"QT_POS_FINAL", "100"},
                                      {"VL_MERC_POS_FINAL", "3800.00"},
                                      {"DT_INI_VIGENCIA", "2024-01-01"}}));
    m.Row("cda_fi_BLC_4", lent);
    m.Row("cda_fi_BLC_4", lent);
    m.Row("cda_fi_BLC_4", With(Holder(kC, "FUNDO CAPA"), {{"TP_APLIC", "Ações"},
                                                          {"CD_ATIVO", "VALE3"},
                                                          {"QT_POS_FINAL", "10"},
                                                          {"VL_MERC_POS_FINAL", "600.00"}}));
    m.Row("cda_fi_BLC_5",
          With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"TP_APLIC", "Depósitos a prazo e outros títulos de IF"},
                                                 {"CNPJ_EMISSOR", "11.111.111/0001-91"},
                                                 {"EMISSOR", "BANCO DELTA S.A."},
                                                 {"DT_VENC", "2025-12-15"},
                                                 {"TITULO_POSFX", "CDB"},
                                                 {"CD_INDEXADOR_POSFX", "CDI"},
                                                 {"PR_INDEXADOR_POSFX", "110.00"},
                                                 {"RISCO_EMISSOR", "S"},
                                                 {"AG_RISCO", "ABC Rating"},
                                                 {"DT_RISCO", "2024-03-01"},
                                                 {"GRAU_RISCO", "AA"},
                                                 {"VL_MERC_POS_FINAL", "100000.00"}}));
    m.Row("cda_fi_BLC_6", With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"TP_APLIC", "Títulos de Crédito Privado"},
                                                                 {"PF_PJ_EMISSOR", "PF"},
                                                                 {"CPF_CNPJ_EMISSOR", "123.456.789-09"},
                                                                 {"EMISSOR", "JOÃO DA SILVA"},
                                                                 {"DT_VENC", "2027-06-30"},
                                                                 {"TITULO_POSFX", "CCB"},
                                                                 {"TITULO_CETIP", "S"},
                                                                 {"TITULO_GARANTIA", "N"},
                                                                 {"VL_MERC_POS_FINAL", "7000.00"}}));
    m.Row("cda_fi_BLC_7", With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"TP_APLIC", "Investimento no Exterior"},
                                                                 {"INVEST_COLETIVO", "N"},
                                                                 {"EMISSOR", "APPLE INC"},
                                                                 {"CD_PAIS", "US"},
                                                                 {"PAIS", "Estados Unidos"},
                                                                 {"CD_BV_MERC", "XNAS"},
                                                                 {"BV_MERC", "NASDAQ"},
                                                                 {"CD_ATIVO_BV_MERC", "AAPL"},
                                                                 {"DS_ATIVO_EXTERIOR", "APPLE INC COMMON"},
                                                                 {"QT_ATIVO_EXTERIOR", "10"},
                                                                 {"VL_ATIVO_EXTERIOR", "2000.00"},
                                                                 {"VL_MERC_POS_FINAL", "10000.00"}}));
    m.Row("cda_fi_BLC_8", With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"TP_APLIC", "Outras aplicações"},
                                                                 {"DS_ATIVO", "Direitos creditórios"},
                                                                 {"PF_PJ_EMISSOR", "PJ"},
                                                                 {"CPF_CNPJ_EMISSOR", "22222222000191"},
                                                                 {"EMISSOR", "CEDENTE ÔMEGA LTDA"}}));
    m.Row("cda_fie", With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"VL_PATRIM_LIQ", "1000000.50"},
                                                            {"TP_APLIC", "Investimento no exterior"},
                                                            {"CD_ATIVO", "XYZ"},
                                                            {"CD_SELIC", "200000"},
                                                            {"DS_ATIVO", "FUNDO EXTERIOR"},
                                                            {"VL_MERC_POS_FINAL", "5000.00"}}));
    const Fields confidential =
        With(Holder(kA, "FIDC CRÉDITO ALFA"),
             {{"TP_APLIC", "Ações"}, {"VL_MERC_POS_FINAL", "123.00"}, {"DT_CONFID_APLIC", "2024-09-30"}});
    m.Row("cda_fi_CONFID", confidential);
    m.Row("cda_fi_CONFID", With(confidential, {{"TP_APLIC", "Cotas de Fundos"}}));
    m.Row("cda_fi_CONFID", With(Holder(kD, "FUNDO DELTA"), {{"TP_APLIC", "Ações"}}));
    m.Row("cda_fie_CONFID", confidential);
    return m;
}

// The month before: one holder, one position.
CdaMonth PreviousMonth() {
    CdaMonth m("202405");
    m.Row("cda_fi_PL", With(Holder(kA, "FIDC CRÉDITO ALFA", "2024-05-31"), {{"VL_PATRIM_LIQ", "900000.00"}}));
    m.Row("cda_fi_BLC_4",
          With(Holder(kA, "FIDC CRÉDITO ALFA", "2024-05-31"),
               {{"TP_APLIC", "Ações"}, {"CD_ATIVO", "PETR4"}, {"VL_MERC_POS_FINAL", "3700.00"}}));
    return m;
}

constexpr std::size_t kBaseHolders = 4;
constexpr std::size_t kBasePositions = 11;
constexpr std::size_t kBaseRows = 19;

template <typename T>
std::string Show(const std::optional<T>& value) {
    if (!value) {
        return "null";
    }
    std::ostringstream out;
    out.precision(17);
    out << *value;
    return out.str();
}

// Every stored row as text, sorted: equal dumps mean an unchanged database.
std::vector<std::string> Dump(odb::database& db) {
    std::vector<std::string> rows;
    for (const CdaHolder& h : AllRows<CdaHolder>(db)) {
        rows.push_back("H|" + h.cnpj + "|" + h.month + "|" + Show(h.filer_type) + "|" + Show(h.name) + "|" +
                       Show(h.nav) + "|" + std::to_string(h.positions) + "|" +
                       std::to_string(h.confidential_rows));
    }
    for (const CdaPosition& p : AllRows<CdaPosition>(db)) {
        rows.push_back("P|" + p.cnpj + "|" + p.month + "|" + std::to_string(p.ordinal) + "|" + p.block + "|" +
                       Show(p.application_type) + "|" + Show(p.market_value) + "|" + Show(p.asset_code) +
                       "|" + Show(p.description) + "|" + p.details_json);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::vector<CdaPosition> PositionsOf(odb::database& db, const std::string& month, const std::string& block) {
    std::vector<CdaPosition> found;
    for (const CdaPosition& p : AllRows<CdaPosition>(db)) {
        if (p.month == month && p.block == block) {
            found.push_back(p);
        }
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.ordinal < b.ordinal; });
    return found;
}

std::optional<CdaHolder> HolderOf(odb::database& db, const std::string& cnpj, const std::string& month) {
    for (const CdaHolder& h : AllRows<CdaHolder>(db)) {
        if (h.cnpj == cnpj && h.month == month) {
            return h;
        }
    }
    return std::nullopt;
}

boost::json::value Details(const CdaPosition& p) {
    return boost::json::parse(p.details_json);
}

class CdaTest : public ScratchDatabaseTest {
protected:
    void SetUp() override { summary_ = IngestCda(Db(), {BaseMonth().WriteZip(database_.Dir())}); }

    // The ingest fails with a message containing `expected`, and the database is as it was.
    void ExpectRejected(const std::vector<fs::path>& inputs, const std::string& expected) {
        ExpectRejectedUnchanged([&] { IngestCda(Db(), inputs); }, [&] { return Dump(Db()); }, expected);
    }

    sdk::IngestSummary summary_;
};

TEST_F(CdaTest, CountsEveryRow) {
    EXPECT_EQ(summary_.rows_read, kBaseRows);
    EXPECT_EQ(summary_.inserted, kBaseHolders + kBasePositions);
    EXPECT_EQ(summary_.removed, 0u);
    EXPECT_EQ(summary_.rejected, 1u);
    EXPECT_THAT(
        summary_.rejections,
        ElementsAre("cda_fi_202406.zip:cda_fi_BLC_4_202406.csv line 4: repeats an earlier identical line "
                    "(collapsed)"));
    EXPECT_EQ(AllRows<CdaHolder>(Db()).size(), kBaseHolders);
    EXPECT_EQ(AllRows<CdaPosition>(Db()).size(), kBasePositions);
    EXPECT_EQ(summary_.release_label, "2024-06");
    EXPECT_EQ(summary_.as_of, "2024-06");
}

TEST_F(CdaTest, HoldersCarryThePlAndTheCounts) {
    const auto a = HolderOf(Db(), "12345678000195", "2024-06");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->filer_type, "CLASSES - FIF");
    EXPECT_EQ(a->name, "FIDC CRÉDITO ALFA");
    EXPECT_EQ(a->nav, 1000000.50);
    EXPECT_EQ(a->positions, 10);
    EXPECT_EQ(a->confidential_rows, 3);

    // Two PL lines for one holder: the last line wins, name and type included.
    const auto b = HolderOf(Db(), "33333333000191", "2024-06");
    ASSERT_TRUE(b);
    EXPECT_EQ(b->nav, 20.00);
    EXPECT_EQ(b->name, "FUNDO BETA");
    EXPECT_EQ(b->filer_type, "CLASSES - FIF");
    EXPECT_EQ(b->positions, 0);
}

TEST_F(CdaTest, AHolderWithoutPlHasANullNav) {
    const auto c = HolderOf(Db(), "44444444000191", "2024-06");
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->nav.has_value());
    EXPECT_EQ(c->name, "FUNDO CAPA");
    EXPECT_EQ(c->positions, 1);
    EXPECT_EQ(c->confidential_rows, 0);
}

TEST_F(CdaTest, ConfidentialRowsAreCountedNotStored) {
    const auto d = HolderOf(Db(), "55555555000191", "2024-06");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->positions, 0);
    EXPECT_EQ(d->confidential_rows, 1);
    EXPECT_EQ(d->name, "FUNDO DELTA");
    for (const CdaPosition& p : AllRows<CdaPosition>(Db())) {
        EXPECT_NE(p.cnpj, "55555555000191");
        EXPECT_TRUE(p.block.starts_with("BLC_") || p.block == "FIE") << p.block;
        EXPECT_NE(p.confidential_until, "2024-09-30");
    }
}

TEST_F(CdaTest, MapsTheSharedColumnsAndPublicBonds) {
    const auto rows = PositionsOf(Db(), "2024-06", "BLC_1");
    ASSERT_EQ(rows.size(), 1u);
    const CdaPosition& p = rows[0];
    EXPECT_EQ(p.cnpj, "12345678000195");
    EXPECT_EQ(p.application_type, "Títulos Públicos");
    EXPECT_EQ(p.asset_type, "Título público federal");
    EXPECT_EQ(p.related_issuer, "N");
    EXPECT_EQ(p.trade_type, "Para negociação");
    EXPECT_EQ(p.quantity_sold, 0.0);  // a published zero stays zero
    EXPECT_EQ(p.value_sold, 0.0);
    EXPECT_EQ(p.quantity_acquired, 100.0);
    EXPECT_EQ(p.value_acquired, 95000.00);
    EXPECT_EQ(p.quantity, 1000.0);
    EXPECT_EQ(p.market_value, 950123.45);
    EXPECT_EQ(p.cost_value, 940000.00);
    EXPECT_FALSE(p.confidential_until.has_value());
    EXPECT_EQ(p.asset_code, "100000");  // CD_SELIC: the block has no CD_ATIVO
    EXPECT_EQ(p.description, "LTN");    // TP_TITPUB
    EXPECT_EQ(p.isin, "BRSTNCLTN7X3");
    EXPECT_EQ(p.maturity, "2026-01-01");
    EXPECT_FALSE(p.invested_cnpj.has_value());
    EXPECT_EQ(Details(p), boost::json::parse(R"({"DT_EMISSAO":"2022-01-07"})"));
}

TEST_F(CdaTest, MapsInvestedFunds) {
    const auto rows = PositionsOf(Db(), "2024-06", "BLC_2");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].invested_cnpj, "66666666000191");
    EXPECT_EQ(rows[0].invested_name, "FIDC GAMA SÊNIOR");
    EXPECT_EQ(rows[0].invested_subclass, "SUB01");
    EXPECT_EQ(rows[0].quantity, 5000.5);
    EXPECT_EQ(rows[0].details_json, "{}");
}

TEST_F(CdaTest, MapsSwapsSharesAndBankDeposits) {
    const auto swaps = PositionsOf(Db(), "2024-06", "BLC_3");
    ASSERT_EQ(swaps.size(), 1u);
    EXPECT_EQ(swaps[0].asset_code, "SWP1");
    EXPECT_EQ(swaps[0].description, "DI x PRÉ");
    EXPECT_EQ(swaps[0].market_value, -1500.25);

    const auto shares = PositionsOf(Db(), "2024-06", "BLC_4");
    ASSERT_EQ(shares.size(), 3u);
    EXPECT_EQ(shares[0].asset_code, "PETR4");
    EXPECT_EQ(shares[0].description, "PETROBRAS PN");
    EXPECT_EQ(shares[0].isin, "BRPETRACNPR6");
    EXPECT_EQ(Details(shares[0]), boost::json::parse(R"({"DT_INI_VIGENCIA":"2024-01-01"})"));

    const auto deposits = PositionsOf(Db(), "2024-06", "BLC_5");
    ASSERT_EQ(deposits.size(), 1u);
    const CdaPosition& cdb = deposits[0];
    EXPECT_EQ(cdb.issuer, "BANCO DELTA S.A.");
    EXPECT_EQ(cdb.issuer_document, "11.111.111/0001-91");  // as published
    EXPECT_EQ(cdb.description, "CDB");                     // TITULO_POSFX
    EXPECT_FALSE(cdb.asset_code.has_value());
    EXPECT_EQ(cdb.maturity, "2025-12-15");
    EXPECT_EQ(Details(cdb), boost::json::parse(R"({"CD_INDEXADOR_POSFX":"CDI","PR_INDEXADOR_POSFX":"110.00",
        "RISCO_EMISSOR":"S","AG_RISCO":"ABC Rating","DT_RISCO":"2024-03-01","GRAU_RISCO":"AA"})"));
}

TEST_F(CdaTest, MapsPrivateCreditForeignAndOtherAssets) {
    const auto credit = PositionsOf(Db(), "2024-06", "BLC_6");
    ASSERT_EQ(credit.size(), 1u);
    EXPECT_EQ(credit[0].issuer_document, "123.456.789-09");  // a CPF, as published
    EXPECT_EQ(credit[0].issuer, "JOÃO DA SILVA");
    EXPECT_EQ(credit[0].description, "CCB");
    EXPECT_EQ(Details(credit[0]),
              boost::json::parse(R"({"PF_PJ_EMISSOR":"PF","TITULO_CETIP":"S","TITULO_GARANTIA":"N"})"));

    const auto foreign = PositionsOf(Db(), "2024-06", "BLC_7");
    ASSERT_EQ(foreign.size(), 1u);
    EXPECT_EQ(foreign[0].asset_code, "AAPL");
    EXPECT_EQ(foreign[0].description, "APPLE INC COMMON");
    EXPECT_EQ(Details(foreign[0]), boost::json::parse(R"({"INVEST_COLETIVO":"N","CD_PAIS":"US",
        "PAIS":"Estados Unidos","CD_BV_MERC":"XNAS","BV_MERC":"NASDAQ","QT_ATIVO_EXTERIOR":"10",
        "VL_ATIVO_EXTERIOR":"2000.00"})"));

    const auto fie = PositionsOf(Db(), "2024-06", "FIE");
    ASSERT_EQ(fie.size(), 1u);
    EXPECT_EQ(fie[0].asset_code, "XYZ");  // CD_ATIVO first; CD_SELIC stays in the details
    EXPECT_EQ(fie[0].description, "FUNDO EXTERIOR");
    EXPECT_EQ(Details(fie[0]), boost::json::parse(R"({"VL_PATRIM_LIQ":"1000000.50","CD_SELIC":"200000"})"));
}

TEST_F(CdaTest, EmptyFieldsStayNull) {
    const auto other = PositionsOf(Db(), "2024-06", "BLC_8");
    ASSERT_EQ(other.size(), 1u);
    const CdaPosition& p = other[0];
    EXPECT_EQ(p.description, "Direitos creditórios");
    EXPECT_EQ(p.issuer_document, "22222222000191");
    EXPECT_EQ(p.issuer, "CEDENTE ÔMEGA LTDA");
    for (const auto& number : {p.quantity_sold, p.value_sold, p.quantity_acquired, p.value_acquired,
                               p.quantity, p.market_value, p.cost_value}) {
        EXPECT_FALSE(number.has_value());
    }
    for (const auto& text : {p.asset_type, p.related_issuer, p.trade_type, p.confidential_until, p.asset_code,
                             p.isin, p.maturity, p.invested_cnpj, p.invested_name, p.invested_subclass}) {
        EXPECT_FALSE(text.has_value());
    }
    EXPECT_EQ(Details(p), boost::json::parse(R"({"PF_PJ_EMISSOR":"PJ"})"));
}

TEST_F(CdaTest, RepeatedAssetsStayWhileIdenticalLinesCollapse) {
    const auto shares = PositionsOf(Db(), "2024-06", "BLC_4");
    ASSERT_EQ(shares.size(), 3u);
    EXPECT_EQ(shares[0].application_type, "Ações");
    EXPECT_EQ(shares[1].application_type, "Ações e outros TVM cedidos em empréstimo");
    EXPECT_EQ(shares[1].asset_code, "PETR4");
    EXPECT_EQ(shares[2].asset_code, "VALE3");
    EXPECT_EQ(shares[2].cnpj, "44444444000191");
}

TEST_F(CdaTest, OrdinalIsTheBlockThenTheLine) {
    EXPECT_EQ(PositionsOf(Db(), "2024-06", "BLC_1")[0].ordinal, 1'000'000'002);
    const auto shares = PositionsOf(Db(), "2024-06", "BLC_4");
    EXPECT_EQ(shares[0].ordinal, 4'000'000'002);
    EXPECT_EQ(shares[1].ordinal, 4'000'000'003);
    EXPECT_EQ(shares[2].ordinal, 4'000'000'005);  // line 4 was collapsed
    EXPECT_EQ(PositionsOf(Db(), "2024-06", "BLC_8")[0].ordinal, 8'000'000'002);
    EXPECT_EQ(PositionsOf(Db(), "2024-06", "FIE")[0].ordinal, 9'000'000'002);
}

TEST_F(CdaTest, LooseCsvsGiveTheSameRowsAsTheZip) {
    FundsDatabase other;
    const auto summary = IngestCda(other.Db(), BaseMonth().WriteLoose(Dir("loose")));
    EXPECT_EQ(summary.inserted, kBaseHolders + kBasePositions);
    EXPECT_EQ(Dump(other.Db()), Dump(Db()));
}

TEST_F(CdaTest, ReingestReplacesTheMonthAndOnlyIt) {
    IngestCda(Db(), {PreviousMonth().WriteZip(Dir("previous"))});
    const auto may = PositionsOf(Db(), "2024-05", "BLC_4");
    ASSERT_EQ(may.size(), 1u);

    CdaMonth june("202406");
    june.Row("cda_fi_PL", With(Holder(kA, "FIDC CRÉDITO ALFA"), {{"VL_PATRIM_LIQ", "1100000.00"}}));
    june.Row("cda_fi_BLC_4",
             With(Holder(kA, "FIDC CRÉDITO ALFA"),
                  {{"TP_APLIC", "Ações"}, {"CD_ATIVO", "ITUB4"}, {"VL_MERC_POS_FINAL", "50.00"}}));
    const auto summary = IngestCda(Db(), {june.WriteZip(Dir("june"))});
    EXPECT_EQ(summary.removed, kBaseHolders + kBasePositions);
    EXPECT_EQ(summary.inserted, 2u);

    const auto shares = PositionsOf(Db(), "2024-06", "BLC_4");
    ASSERT_EQ(shares.size(), 1u);
    EXPECT_EQ(shares[0].asset_code, "ITUB4");
    EXPECT_FALSE(HolderOf(Db(), "33333333000191", "2024-06").has_value());
    EXPECT_EQ(HolderOf(Db(), "12345678000195", "2024-06")->nav, 1100000.00);
    // The other month is untouched, ids included.
    const auto may_after = PositionsOf(Db(), "2024-05", "BLC_4");
    ASSERT_EQ(may_after.size(), 1u);
    EXPECT_EQ(may_after[0].id, may[0].id);
    EXPECT_EQ(HolderOf(Db(), "12345678000195", "2024-05")->nav, 900000.00);
}

TEST_F(CdaTest, SeveralMonthsInOneIngestAndTheLabelIsTheLatestStored) {
    FundsDatabase other;
    const auto both =
        IngestCda(other.Db(), {BaseMonth().WriteZip(Dir("a")), PreviousMonth().WriteZip(Dir("b"))});
    EXPECT_EQ(both.release_label, "2024-06");
    EXPECT_EQ(AllRows<CdaHolder>(other.Db()).size(), kBaseHolders + 1);

    // Re-ingesting an older month does not move the release back.
    const auto older = IngestCda(Db(), {PreviousMonth().WriteZip(Dir("c"))});
    EXPECT_EQ(older.release_label, "2024-06");
    EXPECT_EQ(older.as_of, "2024-06");
}

TEST_F(CdaTest, ReportsAStagePerMember) {
    RecordingProgress progress;
    IngestCda(Db(), {BaseMonth().WriteZip(Dir("again"))}, &progress);
    ASSERT_EQ(progress.Stages().size(), 12u);
    EXPECT_EQ(progress.Stages().front(), "cda_fi_202406.zip:cda_fi_PL_202406.csv");
    EXPECT_EQ(progress.Stages()[1], "cda_fi_202406.zip:cda_fi_BLC_1_202406.csv");
    EXPECT_EQ(progress.Stages().back(), "cda_fi_202406.zip:cda_fie_CONFID_202406.csv");
}

// ---- rejections: each leaves the database as it was ------------------------------------

TEST_F(CdaTest, AMissingRequiredColumnIsNamedAtLine1) {
    CdaMonth m = BaseMonth();
    auto header = CdaHeaders().at("cda_fi_BLC_3");
    header.erase(std::find(header.begin(), header.end(), "VL_MERC_POS_FINAL"));
    m.SetHeader("cda_fi_BLC_3", header);
    ExpectRejected({m.WriteZip(Dir("x"))},
                   "cda_fi_202406.zip:cda_fi_BLC_3_202406.csv:1: missing column VL_MERC_POS_FINAL");
}

TEST_F(CdaTest, AMissingInvestedFundColumnIsNamed) {
    CdaMonth m = BaseMonth();
    auto header = CdaHeaders().at("cda_fi_BLC_2");
    header.erase(std::find(header.begin(), header.end(), "CNPJ_FUNDO_CLASSE_COTA"));
    m.SetHeader("cda_fi_BLC_2", header);
    ExpectRejected({m.WriteZip(Dir("x"))},
                   "cda_fi_BLC_2_202406.csv:1: missing column CNPJ_FUNDO_CLASSE_COTA (or CNPJ_FUNDO_COTA)");
}

TEST_F(CdaTest, AnInvalidNumberIsNamedWithLineColumnAndValue) {
    CdaMonth m = BaseMonth();
    m.Row("cda_fi_BLC_4", With(Holder(kA, "X"), {{"CD_ATIVO", "BBAS3"}, {"VL_MERC_POS_FINAL", "3.800,00"}}));
    ExpectRejected({m.WriteZip(Dir("x"))},
                   "cda_fi_BLC_4_202406.csv:6: VL_MERC_POS_FINAL is not a number: '3.800,00'");
}

TEST_F(CdaTest, AnInvalidDateIsNamed) {
    CdaMonth m = BaseMonth();
    m.Row("cda_fi_BLC_1", With(Holder(kA, "X"), {{"TP_TITPUB", "NTN-B"}, {"DT_VENC", "15/08/2030"}}));
    ExpectRejected({m.WriteZip(Dir("x"))},
                   "cda_fi_BLC_1_202406.csv:3: DT_VENC is not a YYYY-MM-DD date: '15/08/2030'");
}

TEST_F(CdaTest, AnInvalidInvestedCnpjIsNamed) {
    CdaMonth m = BaseMonth();
    m.Row("cda_fi_BLC_2", With(Holder(kA, "X"), {{"CNPJ_FUNDO_CLASSE_COTA", "66.666.666/0001-00"}}));
    ExpectRejected(
        {m.WriteZip(Dir("x"))},
        "cda_fi_BLC_2_202406.csv:3: CNPJ_FUNDO_CLASSE_COTA is not a valid CNPJ: '66.666.666/0001-00'");
}

TEST_F(CdaTest, AnInvalidHolderCnpjIsNamed) {
    CdaMonth m = BaseMonth();
    m.Row("cda_fi_PL", With(Holder("12.345.678/0001-00", "X"), {{"VL_PATRIM_LIQ", "1.00"}}));
    ExpectRejected({m.WriteZip(Dir("x"))},
                   "cda_fi_PL_202406.csv:5: CNPJ_FUNDO_CLASSE is not a valid CNPJ: '12.345.678/0001-00'");
}

TEST_F(CdaTest, ARowOfAnotherMonthIsRefused) {
    CdaMonth m = BaseMonth();
    m.Row("cda_fi_BLC_8", With(Holder(kA, "X", "2024-05-31"), {{"DS_ATIVO", "Outro"}}));
    ExpectRejected(
        {m.WriteZip(Dir("x"))},
        "cda_fi_BLC_8_202406.csv:3: DT_COMPTC is not in 2024-06, the month of the file: '2024-05-31'");
}

TEST_F(CdaTest, AWrongFieldCountIsNamed) {
    CdaMonth m = BaseMonth();
    m.RawLine("cda_fi_BLC_6", "CLASSES - FIF;12.345.678/0001-95;CURTA;2024-06-30");
    ExpectRejected({m.WriteZip(Dir("x"))}, "cda_fi_BLC_6_202406.csv:3: expected 29 fields, found 4");
}

TEST_F(CdaTest, MissingMembersAreNamedWithTheMonth) {
    CdaMonth m = BaseMonth();
    m.Remove("cda_fi_BLC_3");
    m.Remove("cda_fi_PL");
    ExpectRejected({m.WriteZip(Dir("x"))},
                   "cda_fi_202406.zip: month 2024-06 is incomplete: missing "
                   "cda_fi_PL_202406.csv, cda_fi_BLC_3_202406.csv");
}

TEST_F(CdaTest, LooseFilesWithoutTheBlocksAreRefused) {
    CdaMonth m = BaseMonth();
    const fs::path dir = Dir("loose");
    const auto paths = m.WriteLoose(dir);
    std::vector<fs::path> only_pl;
    std::copy_if(paths.begin(), paths.end(), std::back_inserter(only_pl),
                 [](const fs::path& p) { return p.filename() == "cda_fi_PL_202406.csv"; });
    ExpectRejected(only_pl, "month 2024-06 is incomplete: missing cda_fi_BLC_1_202406.csv");
}

TEST_F(CdaTest, ATruncatedZipIsNamed) {
    const fs::path path = BaseMonth().WriteZip(Dir("x"));
    fs::resize_file(path, fs::file_size(path) / 2);
    ExpectRejected({path}, "cda_fi_202406.zip");
}

TEST_F(CdaTest, ABadLaterMonthLeavesTheEarlierOneUnwritten) {
    CdaMonth bad("202407");
    bad.Row("cda_fi_BLC_4", With(Holder(kA, "X", "2024-07-31"), {{"QT_POS_FINAL", "abc"}}));
    ExpectRejected({PreviousMonth().WriteZip(Dir("good")), bad.WriteZip(Dir("bad"))},
                   "cda_fi_202407.zip:cda_fi_BLC_4_202407.csv:2: QT_POS_FINAL is not a number: 'abc'");
    EXPECT_FALSE(HolderOf(Db(), "12345678000195", "2024-05").has_value());
}

TEST_F(CdaTest, UnknownFilesAndDoubleMembersAreRefused) {
    const fs::path stray = Dir("x") / "cda_fi_XYZ_202406.csv";
    WriteFile(stray, "A;B\r\n");
    ExpectRejected({stray}, "cda_fi_XYZ_202406.csv: not a file of cvm.cda_fi");
    ExpectRejected({BaseMonth().WriteZip(Dir("y")), BaseMonth().WriteZip(Dir("z"))},
                   "cda_fi_BLC_1_202406.csv: given twice");
}

TEST(CdaMemberNames, AreRecognisedInAnyCase) {
    auto blc = ParseCdaMemberName("cda_fi_BLC_7_202406.csv");
    ASSERT_TRUE(blc);
    EXPECT_EQ(blc->kind, CdaMemberKind::kBlock);
    EXPECT_EQ(blc->block, 7);
    EXPECT_EQ(blc->month, (sdk::Month{2024, 6}));
    EXPECT_EQ(ParseCdaMemberName("CDA_FIE_CONFID_202501.CSV")->kind, CdaMemberKind::kFieConfidential);
    EXPECT_EQ(ParseCdaMemberName("cda_fie_202501.csv")->block, 9);
    EXPECT_FALSE(ParseCdaMemberName("cda_fi_BLC_9_202406.csv"));
    EXPECT_FALSE(ParseCdaMemberName("cda_fi_PL_202413.csv"));
    EXPECT_FALSE(ParseCdaMemberName("cda_fi_PL_2024.csv"));
}

TEST(CdaSeenLines, TellsRepeatsFromNewLinesAcrossGrowth) {
    SeenLines seen;
    for (int i = 0; i < 5000; ++i) {
        EXPECT_TRUE(seen.Insert(DigestOf("line " + std::to_string(i))));
    }
    for (int i = 0; i < 5000; i += 7) {
        EXPECT_FALSE(seen.Insert(DigestOf("line " + std::to_string(i))));
    }
    EXPECT_TRUE(seen.Insert(DigestOf("line 5000")));
}

}  // namespace
}  // namespace lastro::funds::testing
