// The CDA portfolios of the default sample: members and headers as published, agreement with
// the FIDC monthly reports, and the cases the portfolio endpoints must handle.
#include "sample_test_support.hpp"

#include <lastro/sdk/cnpj.hpp>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::funds::sample {
namespace {

using testing::Cents;
using testing::DefaultSample;
using testing::ParsedCsv;
using testing::Yyyymm;
using Row = std::vector<std::string>;

constexpr std::string_view kKeys = "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;";
constexpr std::string_view kShared =
    "TP_APLIC;TP_ATIVO;EMISSOR_LIGADO;TP_NEGOC;QT_VENDA_NEGOC;VL_VENDA_NEGOC;QT_AQUIS_NEGOC;VL_AQUIS_NEGOC;"
    "QT_POS_FINAL;VL_MERC_POS_FINAL;VL_CUSTO_POS_FINAL;DT_CONFID_APLIC";

// From FORMATS.md §4: BLC_4, PL and CONFID exactly as published; the other blocks' own columns
// in the order FORMATS lists them.
const std::map<std::string, std::string> kExpectedHeaders{
    {"BLC_1", std::string(kKeys) + std::string(kShared) + ";TP_TITPUB;CD_ISIN;CD_SELIC;DT_EMISSAO;DT_VENC"},
    {"BLC_2", std::string(kKeys) + std::string(kShared) +
                  ";CNPJ_FUNDO_CLASSE_COTA;NM_FUNDO_CLASSE_SUBCLASSE_COTA;ID_SUBCLASSE"},
    {"BLC_3", std::string(kKeys) + std::string(kShared) + ";CD_SWAP;DS_SWAP"},
    {"BLC_4",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TP_APLIC;TP_ATIVO;EMISSOR_LIGADO;TP_NEGOC;"
     "QT_VENDA_NEGOC;VL_VENDA_NEGOC;QT_AQUIS_NEGOC;VL_AQUIS_NEGOC;QT_POS_FINAL;VL_MERC_POS_FINAL;"
     "VL_CUSTO_POS_FINAL;DT_CONFID_APLIC;CD_ATIVO;DS_ATIVO;CD_ISIN;DT_INI_VIGENCIA;DT_FIM_VIGENCIA"},
    {"BLC_5",
     std::string(kKeys) + std::string(kShared) +
         ";CNPJ_EMISSOR;EMISSOR;DT_VENC;TITULO_POSFX;CD_INDEXADOR_POSFX;DS_INDEXADOR_POSFX;"
         "PR_INDEXADOR_POSFX;PR_CUPOM_POSFX;PR_TAXA_PREFX;RISCO_EMISSOR;AG_RISCO;DT_RISCO;GRAU_RISCO"},
    {"BLC_6", std::string(kKeys) + std::string(kShared) +
                  ";PF_PJ_EMISSOR;CPF_CNPJ_EMISSOR;EMISSOR;DT_VENC;TITULO_POSFX;CD_INDEXADOR_POSFX;"
                  "DS_INDEXADOR_POSFX;PR_INDEXADOR_POSFX;PR_CUPOM_POSFX;PR_TAXA_PREFX;TITULO_CETIP;"
                  "TITULO_GARANTIA;CNPJ_INSTITUICAO_FINANC_COOBR"},
    {"BLC_7", std::string(kKeys) + std::string(kShared) +
                  ";INVEST_COLETIVO;INVEST_COLETIVO_GESTOR;EMISSOR;DT_VENC;CD_PAIS;PAIS;CD_BV_MERC;BV_MERC;"
                  "CD_ATIVO_BV_MERC;RISCO_EMISSOR;AG_RISCO;DT_RISCO;GRAU_RISCO;DS_ATIVO_EXTERIOR;"
                  "QT_ATIVO_EXTERIOR;VL_ATIVO_EXTERIOR"},
    {"BLC_8", std::string(kKeys) + std::string(kShared) + ";DS_ATIVO;PF_PJ_EMISSOR;CPF_CNPJ_EMISSOR;EMISSOR"},
    {"PL", "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;VL_PATRIM_LIQ"},
    {"CONFID",
     "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;DENOM_SOCIAL;DT_COMPTC;TP_APLIC;VL_VENDA_NEGOC;VL_AQUIS_NEGOC;"
     "VL_MERC_POS_FINAL;VL_CUSTO_POS_FINAL;DT_CONFID_APLIC"},
    {"fie", std::string(kKeys) + "VL_PATRIM_LIQ;" + std::string(kShared) +
                ";CD_ATIVO;DS_ATIVO;DT_VENC;PF_PJ_EMISSOR;CPF_CNPJ_EMISSOR;EMISSOR;RISCO_EMISSOR;CD_SELIC;"
                "DT_INI_VIGENCIA;CD_PAIS;PAIS;CD_BV_MERC;BV_MERC"},
};

std::vector<sdk::Month> CdaMonths() {
    return {{2026, 3}, {2026, 4}, {2026, 5}, {2026, 6}, {2026, 7}, {2026, 8}};
}

const ParsedCsv& Cda(std::string_view member, sdk::Month month) {
    return DefaultSample::Get().Cda(member, month);
}

std::string Get(const ParsedCsv& csv, const Row& row, std::string_view column) {
    return row.at(csv.Column(column));
}

// The registry's FIDC-family classes (masked CNPJ -> Tipo_Fundo of the fund).
std::map<std::string, std::string> FidcClasses() {
    const ParsedCsv& funds = DefaultSample::Get().File("registro_fundo.csv");
    const ParsedCsv& classes = DefaultSample::Get().File("registro_classe.csv");
    std::map<std::string, std::string> type_of_fund;
    for (const Row& row : funds.rows) {
        type_of_fund[row[funds.Column("ID_Registro_Fundo")]] = row[funds.Column("Tipo_Fundo")];
    }
    std::map<std::string, std::string> out;
    for (const Row& row : classes.rows) {
        const std::string& type = type_of_fund[row[classes.Column("ID_Registro_Fundo")]];
        if (type == "FIDC" || type == "FIDC-NP" || type == "FIC-FIDC") {
            out[sdk::FormatCnpj(row[classes.Column("CNPJ_Classe")])] = type;
        }
    }
    return out;
}

TEST(CdaFilesTest, MembersAndHeadersAsPublished) {
    // The zips themselves: sample_test.cpp (WrittenSampleTest).
    for (const sdk::Month& month : CdaMonths()) {
        SCOPED_TRACE(month.ToString());
        const std::string ym = Yyyymm(month);
        std::vector<std::string> expected;
        for (int block = 1; block <= 8; ++block) {
            expected.push_back("cda_fi_BLC_" + std::to_string(block) + "_" + ym + ".csv");
        }
        if (!(month < sdk::Month{2026, 6})) {
            expected.push_back("cda_fi_CONFID_" + ym + ".csv");
        }
        expected.push_back("cda_fi_PL_" + ym + ".csv");
        expected.push_back("cda_fie_" + ym + ".csv");
        Cda("PL", month);
        for (const std::string& member : expected) {
            EXPECT_TRUE(DefaultSample::Get().HasMember(member)) << member;
        }
        EXPECT_EQ(DefaultSample::Get().HasMember("cda_fi_CONFID_" + ym + ".csv"),
                  !(month < sdk::Month{2026, 6}));
        for (const auto& [member, header] : kExpectedHeaders) {
            if (member == "CONFID" && month < sdk::Month{2026, 6}) {
                continue;
            }
            const ParsedCsv& csv = Cda(member, month);
            EXPECT_EQ(csv.header_line, header) << member;
            for (const Row& row : csv.rows) {
                ASSERT_EQ(row.size(), csv.header.size()) << member;
                EXPECT_EQ(row[0], "CLASSES - FIDC");
                EXPECT_EQ(row[3],
                          (sdk::Date{month.year, month.month, sdk::DaysInMonth(month.year, month.month)}
                               .ToString()));
                const auto parsed = sdk::ParseCnpj(row[1]);
                ASSERT_TRUE(parsed.digits);
                EXPECT_EQ(sdk::FormatCnpj(*parsed.digits), row[1]) << "masked";
            }
        }
    }
}

TEST(CdaContentTest, NetAssetsEqualTheMonthlyReportAndFundsOfFundsAddUp) {
    const std::map<std::string, std::string> fidc = FidcClasses();
    std::size_t fics = 0;
    std::size_t with_np_quotas = 0;
    for (const sdk::Month& month : CdaMonths()) {
        SCOPED_TRACE(month.ToString());
        const ParsedCsv& iv = DefaultSample::Get().Fidc("IV", month);
        const ParsedCsv& i = DefaultSample::Get().Fidc("I", month);
        std::map<std::string, std::string> net_assets;
        std::map<std::string, const Row*> assets;
        for (const Row& row : iv.rows) {
            if (row[0] == "Classe") {
                net_assets[row[1]] = Get(iv, row, "TAB_IV_A_VL_PL");
            }
        }
        for (const Row& row : i.rows) {
            if (row[0] == "Classe") {
                assets[row[1]] = &row;
            }
        }
        // Every FIC-FIDC class that reports holds a portfolio.
        std::set<std::string> holders;
        const ParsedCsv& pl = Cda("PL", month);
        for (const Row& row : pl.rows) {
            ASSERT_TRUE(holders.insert(row[1]).second) << "one PL row per class";
            ASSERT_TRUE(net_assets.count(row[1])) << row[1];
            EXPECT_EQ(Get(pl, row, "VL_PATRIM_LIQ"), net_assets[row[1]]) << row[1];
        }
        std::size_t fidc_holders = 0;
        for (const auto& [cnpj, value] : net_assets) {
            if (fidc.at(cnpj) == "FIC-FIDC") {
                EXPECT_TRUE(holders.count(cnpj)) << cnpj;
            }
        }
        for (const std::string& cnpj : holders) {
            fidc_holders += fidc.at(cnpj) != "FIC-FIDC";
        }
        EXPECT_GE(fidc_holders, 12u);

        // Fund quotas in BLC_2 (and the confidential row) are the report's TAB_I2H + TAB_I2I, and
        // those of FIDC-NP classes its TAB_I2I; a FIC-FIDC's positions plus cash make about its
        // net assets.
        std::map<std::string, __int128> fund_quotas;
        std::map<std::string, __int128> np_quotas;
        std::map<std::string, __int128> positions;
        for (int block = 1; block <= 8; ++block) {
            const ParsedCsv& csv = Cda("BLC_" + std::to_string(block), month);
            for (const Row& row : csv.rows) {
                positions[row[1]] += Cents(Get(csv, row, "VL_MERC_POS_FINAL"));
                if (block == 2) {
                    fund_quotas[row[1]] += Cents(Get(csv, row, "VL_MERC_POS_FINAL"));
                    const auto invested = fidc.find(Get(csv, row, "CNPJ_FUNDO_CLASSE_COTA"));
                    if (invested != fidc.end() && invested->second == "FIDC-NP") {
                        np_quotas[row[1]] += Cents(Get(csv, row, "VL_MERC_POS_FINAL"));
                    }
                }
            }
        }
        if (!(month < sdk::Month{2026, 6})) {
            const ParsedCsv& confid = Cda("CONFID", month);
            for (const Row& row : confid.rows) {
                fund_quotas[row[1]] += Cents(Get(confid, row, "VL_MERC_POS_FINAL"));
                positions[row[1]] += Cents(Get(confid, row, "VL_MERC_POS_FINAL"));
            }
        }
        const auto within = [](__int128 value, __int128 reported) {  // within 0.1 %
            const __int128 diff = value > reported ? value - reported : reported - value;
            return diff * 1000 <= reported + 100;
        };
        for (const auto& [cnpj, value] : fund_quotas) {
            const __int128 np = Cents(Get(i, *assets.at(cnpj), "TAB_I2I_VL_COTA_FIDC_NP"));
            const __int128 reported = Cents(Get(i, *assets.at(cnpj), "TAB_I2H_VL_COTA_FIDC")) + np;
            EXPECT_TRUE(within(value, reported)) << cnpj;
            EXPECT_TRUE(within(np_quotas[cnpj], np)) << cnpj;
            with_np_quotas += np > 0;
            if (fidc.at(cnpj) == "FIC-FIDC") {
                const __int128 cash = Cents(Get(i, *assets.at(cnpj), "TAB_I1_VL_DISP"));
                const __int128 total = positions[cnpj] + cash;
                const __int128 net = testing::Cents(net_assets[cnpj]);
                const __int128 gap = total > net ? total - net : net - total;
                EXPECT_LE(gap * 100, net * 8) << cnpj;  // liabilities, other assets, bonds too small to hold
                ++fics;
            }
        }
    }
    EXPECT_GT(fics, 60u);
    EXPECT_GT(with_np_quotas, 20u);  // FIC-FIDCs holding FIDC-NP quotas, over the six months
}

TEST(CdaContentTest, FundsOfFundsHoldFidcQuotasThatChange) {
    const std::map<std::string, std::string> fidc = FidcClasses();
    std::set<std::string> outside;
    std::size_t entries = 0;
    std::size_t exits = 0;
    std::map<std::string, std::set<std::string>> before;
    for (const sdk::Month& month : CdaMonths()) {
        SCOPED_TRACE(month.ToString());
        const ParsedCsv& blc2 = Cda("BLC_2", month);
        std::map<std::string, std::set<std::string>> held;
        for (const Row& row : blc2.rows) {
            const std::string invested = Get(blc2, row, "CNPJ_FUNDO_CLASSE_COTA");
            EXPECT_TRUE(held[row[1]].insert(invested).second) << "one line per invested class";
            const auto found = fidc.find(invested);
            if (found == fidc.end()) {
                outside.insert(invested);
            } else {
                EXPECT_NE(found->second, "FIC-FIDC");
            }
            EXPECT_FALSE(Get(blc2, row, "NM_FUNDO_CLASSE_SUBCLASSE_COTA").empty());
            EXPECT_GT(Cents(Get(blc2, row, "VL_MERC_POS_FINAL")), 0);
        }
        for (const auto& [holder, funds] : held) {
            if (fidc.at(holder) == "FIC-FIDC") {
                EXPECT_GE(funds.size(), 1u);
                EXPECT_LE(funds.size(), 10u);
            }
            if (!before.count(holder)) {
                continue;
            }
            for (const std::string& cnpj : funds) {
                entries += !before[holder].count(cnpj);
            }
            for (const std::string& cnpj : before[holder]) {
                exits += !funds.count(cnpj);
            }
        }
        before = held;
    }
    EXPECT_EQ(outside.size(), 1u) << "one fund outside the registry";
    EXPECT_GE(entries, 1u);
    EXPECT_GE(exits, 1u);
}

TEST(CdaContentTest, ConfidentialLargeAndIncompletePositions) {
    std::size_t confidential = 0;
    std::size_t dated = 0;
    std::size_t cost_empty = 0;
    std::size_t quantity_empty = 0;
    for (const sdk::Month& month : CdaMonths()) {
        if (!(month < sdk::Month{2026, 6})) {
            const ParsedCsv& confid = Cda("CONFID", month);
            ASSERT_EQ(confid.rows.size(), 1u);
            EXPECT_FALSE(Get(confid, confid.rows[0], "DT_CONFID_APLIC").empty());
            confidential += confid.rows.size();
        }
        std::map<std::string, std::size_t> positions;
        for (int block = 1; block <= 8; ++block) {
            const ParsedCsv& csv = Cda("BLC_" + std::to_string(block), month);
            for (const Row& row : csv.rows) {
                ++positions[row[1]];
                dated += !Get(csv, row, "DT_CONFID_APLIC").empty();
                cost_empty += Get(csv, row, "VL_CUSTO_POS_FINAL").empty();
                quantity_empty += Get(csv, row, "QT_POS_FINAL").empty();
                if (Get(csv, row, "QT_POS_FINAL").empty()) {
                    EXPECT_EQ(block, 8);
                }
            }
        }
        if (month == sdk::Month{2026, 8}) {
            std::size_t largest = 0;
            for (const auto& [cnpj, count] : positions) {
                largest = std::max(largest, count);
            }
            EXPECT_GT(largest, 230u);
        }
    }
    EXPECT_EQ(confidential, 3u);
    EXPECT_GE(dated, 1u);
    EXPECT_GT(cost_empty, 0u);
    EXPECT_GE(quantity_empty, 1u);
    for (const std::string block : {"BLC_3", "BLC_7", "fie"}) {
        EXPECT_TRUE(Cda(block, {2026, 8}).rows.empty()) << block;
    }
}

}  // namespace
}  // namespace lastro::funds::sample
