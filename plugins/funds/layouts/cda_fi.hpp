// cvm.cda_fi (docs/datasets/cda_fi.md, FORMATS 4): the published columns of the members of
// cda_fi_YYYYMM.zip. Before RCVM 175 the keys were CNPJ_FUNDO and TP_FUNDO, and BLC_2 named the
// invested fund CNPJ_FUNDO_COTA and NM_FUNDO_COTA.
#pragma once

#include "layouts/columns.hpp"

#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds {

inline constexpr std::string_view kCdaNavColumn = "VL_PATRIM_LIQ";  // PL and fie

// The four key columns every member starts with.
inline constexpr std::array<std::string_view, 4> kCdaKeyColumns{"TP_FUNDO_CLASSE", "CNPJ_FUNDO_CLASSE",
                                                                "DENOM_SOCIAL", "DT_COMPTC"};
// The columns every position member (BLC_1..BLC_8, fie) has after the keys.
inline constexpr std::array<std::string_view, 12> kCdaPositionColumns{
    "TP_APLIC",       "TP_ATIVO",          "EMISSOR_LIGADO",     "TP_NEGOC",
    "QT_VENDA_NEGOC", "VL_VENDA_NEGOC",    "QT_AQUIS_NEGOC",     "VL_AQUIS_NEGOC",
    "QT_POS_FINAL",   "VL_MERC_POS_FINAL", "VL_CUSTO_POS_FINAL", "DT_CONFID_APLIC"};
// Each block's own columns, after the keys and the position columns (BLC_4 is the exact
// published header; the others keep the order FORMATS lists them in).
inline constexpr std::array<std::string_view, 5> kCdaBlc1Columns{"TP_TITPUB", "CD_ISIN", "CD_SELIC",
                                                                 "DT_EMISSAO", "DT_VENC"};
inline constexpr std::array<std::string_view, 3> kCdaBlc2Columns{
    "CNPJ_FUNDO_CLASSE_COTA", "NM_FUNDO_CLASSE_SUBCLASSE_COTA", "ID_SUBCLASSE"};
inline constexpr std::array<std::string_view, 2> kCdaBlc3Columns{"CD_SWAP", "DS_SWAP"};
inline constexpr std::array<std::string_view, 5> kCdaBlc4Columns{"CD_ATIVO", "DS_ATIVO", "CD_ISIN",
                                                                 "DT_INI_VIGENCIA", "DT_FIM_VIGENCIA"};
inline constexpr std::array<std::string_view, 13> kCdaBlc5Columns{"CNPJ_EMISSOR",
                                                                  "EMISSOR",
                                                                  "DT_VENC",
                                                                  "TITULO_POSFX",
                                                                  "CD_INDEXADOR_POSFX",
                                                                  "DS_INDEXADOR_POSFX",
                                                                  "PR_INDEXADOR_POSFX",
                                                                  "PR_CUPOM_POSFX",
                                                                  "PR_TAXA_PREFX",
                                                                  "RISCO_EMISSOR",
                                                                  "AG_RISCO",
                                                                  "DT_RISCO",
                                                                  "GRAU_RISCO"};
inline constexpr std::array<std::string_view, 13> kCdaBlc6Columns{"PF_PJ_EMISSOR",
                                                                  "CPF_CNPJ_EMISSOR",
                                                                  "EMISSOR",
                                                                  "DT_VENC",
                                                                  "TITULO_POSFX",
                                                                  "CD_INDEXADOR_POSFX",
                                                                  "DS_INDEXADOR_POSFX",
                                                                  "PR_INDEXADOR_POSFX",
                                                                  "PR_CUPOM_POSFX",
                                                                  "PR_TAXA_PREFX",
                                                                  "TITULO_CETIP",
                                                                  "TITULO_GARANTIA",
                                                                  "CNPJ_INSTITUICAO_FINANC_COOBR"};
inline constexpr std::array<std::string_view, 16> kCdaBlc7Columns{
    "INVEST_COLETIVO",   "INVEST_COLETIVO_GESTOR",
    "EMISSOR",           "DT_VENC",
    "CD_PAIS",           "PAIS",
    "CD_BV_MERC",        "BV_MERC",
    "CD_ATIVO_BV_MERC",  "RISCO_EMISSOR",
    "AG_RISCO",          "DT_RISCO",
    "GRAU_RISCO",        "DS_ATIVO_EXTERIOR",
    "QT_ATIVO_EXTERIOR", "VL_ATIVO_EXTERIOR"};
inline constexpr std::array<std::string_view, 4> kCdaBlc8Columns{"DS_ATIVO", "PF_PJ_EMISSOR",
                                                                 "CPF_CNPJ_EMISSOR", "EMISSOR"};
// fie: the keys, VL_PATRIM_LIQ, the position columns, then these.
inline constexpr std::array<std::string_view, 13> kCdaFieColumns{
    "CD_ATIVO", "DS_ATIVO",        "DT_VENC", "PF_PJ_EMISSOR", "CPF_CNPJ_EMISSOR", "EMISSOR", "RISCO_EMISSOR",
    "CD_SELIC", "DT_INI_VIGENCIA", "CD_PAIS", "PAIS",          "CD_BV_MERC",       "BV_MERC"};
// cda_fi_CONFID and cda_fie_CONFID: the keys, then these.
inline constexpr std::array<std::string_view, 6> kCdaConfidentialColumns{
    "TP_APLIC",          "VL_VENDA_NEGOC",     "VL_AQUIS_NEGOC",
    "VL_MERC_POS_FINAL", "VL_CUSTO_POS_FINAL", "DT_CONFID_APLIC"};

// The full header of a member: "PL", "BLC_1" .. "BLC_8", "fie", or "CONFID" (both CONFID members).
inline std::vector<std::string_view> CdaColumns(std::string_view member) {
    std::vector<std::string_view> columns(kCdaKeyColumns.begin(), kCdaKeyColumns.end());
    const auto append = [&columns](std::span<const std::string_view> more) {
        columns.insert(columns.end(), more.begin(), more.end());
    };
    if (member == "PL") {
        columns.push_back(kCdaNavColumn);
    } else if (member == "CONFID") {
        append(kCdaConfidentialColumns);
    } else if (member == "fie") {
        columns.push_back(kCdaNavColumn);
        append(kCdaPositionColumns);
        append(kCdaFieColumns);
    } else {
        const std::array<std::span<const std::string_view>, 8> blocks = {
            kCdaBlc1Columns, kCdaBlc2Columns, kCdaBlc3Columns, kCdaBlc4Columns,
            kCdaBlc5Columns, kCdaBlc6Columns, kCdaBlc7Columns, kCdaBlc8Columns};
        const bool block =
            member.size() == 5 && member.starts_with("BLC_") && member[4] >= '1' && member[4] <= '8';
        if (!block) {
            throw std::invalid_argument("no CDA member " + std::string(member));
        }
        append(kCdaPositionColumns);
        append(blocks[static_cast<std::size_t>(member[4] - '1')]);
    }
    return columns;
}

}  // namespace lastro::funds
