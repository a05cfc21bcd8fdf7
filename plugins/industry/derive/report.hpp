// A FIDC monthly report as the aggregates read it: the funds service's report detail with the
// fields of the one-row tables the indicators use (kReportFields), typed by funds.
#pragma once

#include <lastro/funds/services.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

namespace lastro::industry {

// Every field of the one-row tables an indicator or rule reads: what the funds service is asked for.
inline constexpr std::array<funds::FidcField, 81> kReportFields = {
    funds::FidcField::TAB_I_VL_ATIVO,
    funds::FidcField::TAB_I1_VL_DISP,
    funds::FidcField::TAB_I2A_VL_DIRCRED_RISCO,
    funds::FidcField::TAB_I2B_VL_DIRCRED_SEM_RISCO,
    funds::FidcField::TAB_I2C_VL_VLMOB,
    funds::FidcField::TAB_I2D_VL_TITPUB_FED,
    funds::FidcField::TAB_I2E_VL_CDB,
    funds::FidcField::TAB_I2F_VL_OPER_COMPROM,
    funds::FidcField::TAB_I2G_VL_OUTRO_RF,
    funds::FidcField::TAB_I2H_VL_COTA_FIDC,
    funds::FidcField::TAB_I2I_VL_COTA_FIDC_NP,
    funds::FidcField::TAB_I2J_VL_CONTRATO_FUTURO,
    funds::FidcField::TAB_I2_VL_OUTRO_ATIVO,
    funds::FidcField::TAB_I3_VL_POSICAO_DERIV,
    funds::FidcField::TAB_I4_VL_OUTRO_ATIVO,
    funds::FidcField::TAB_X_VL_LIQUIDEZ_0,
    funds::FidcField::TAB_X_VL_LIQUIDEZ_30,
    funds::FidcField::TAB_X_VL_LIQUIDEZ_60,
    funds::FidcField::TAB_X_VL_LIQUIDEZ_90,
    funds::FidcField::TAB_X_VL_LIQUIDEZ_180,
    funds::FidcField::TAB_X_VL_LIQUIDEZ_360,
    funds::FidcField::TAB_X_VL_LIQUIDEZ_MAIOR_360,
    funds::FidcField::TAB_I2A12_PR_CEDENTE_1,
    funds::FidcField::TAB_I2A12_PR_CEDENTE_2,
    funds::FidcField::TAB_I2A12_PR_CEDENTE_3,
    funds::FidcField::TAB_I2A12_PR_CEDENTE_4,
    funds::FidcField::TAB_I2A12_PR_CEDENTE_5,
    funds::FidcField::TAB_I2A12_PR_CEDENTE_6,
    funds::FidcField::TAB_I2A12_PR_CEDENTE_7,
    funds::FidcField::TAB_I2A12_PR_CEDENTE_8,
    funds::FidcField::TAB_I2A12_PR_CEDENTE_9,
    funds::FidcField::TAB_I2B12_PR_CEDENTE_1,
    funds::FidcField::TAB_I2B12_PR_CEDENTE_2,
    funds::FidcField::TAB_I2B12_PR_CEDENTE_3,
    funds::FidcField::TAB_I2B12_PR_CEDENTE_4,
    funds::FidcField::TAB_I2B12_PR_CEDENTE_5,
    funds::FidcField::TAB_I2B12_PR_CEDENTE_6,
    funds::FidcField::TAB_I2B12_PR_CEDENTE_7,
    funds::FidcField::TAB_I2B12_PR_CEDENTE_8,
    funds::FidcField::TAB_I2B12_PR_CEDENTE_9,
    funds::FidcField::TAB_X_SCR_RISCO_DEVEDOR_AA,
    funds::FidcField::TAB_X_SCR_RISCO_DEVEDOR_A,
    funds::FidcField::TAB_X_SCR_RISCO_DEVEDOR_B,
    funds::FidcField::TAB_X_SCR_RISCO_DEVEDOR_C,
    funds::FidcField::TAB_X_SCR_RISCO_DEVEDOR_D,
    funds::FidcField::TAB_X_SCR_RISCO_DEVEDOR_E,
    funds::FidcField::TAB_X_SCR_RISCO_DEVEDOR_F,
    funds::FidcField::TAB_X_SCR_RISCO_DEVEDOR_G,
    funds::FidcField::TAB_X_SCR_RISCO_DEVEDOR_H,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_PF,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_PJ_NAO_FINANC,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_BANCO,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_CORRETORA_DISTRIB,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_PJ_FINANC,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_INVNR,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_EAPC,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_EFPC,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_RPPS,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_SEGUR,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_CAPITALIZ,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_COTA_FIDC,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_FII,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_OUTRO_FI,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_CLUBE,
    funds::FidcField::TAB_X_NR_COTST_SENIOR_OUTRO,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_PF,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_PJ_NAO_FINANC,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_BANCO,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_CORRETORA_DISTRIB,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_PJ_FINANC,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_INVNR,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_EAPC,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_EFPC,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_RPPS,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_SEGUR,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_CAPITALIZ,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_COTA_FIDC,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_FII,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_OUTRO_FI,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_CLUBE,
    funds::FidcField::TAB_X_NR_COTST_SUBORD_OUTRO,
};

// Table I's shares of the nine largest cedentes (percent): of the credit rights with substantial
// acquisition of risks (I2A12), then of those without (I2B12).
inline constexpr std::array<std::array<funds::FidcField, 9>, 2> kCedenteShares = {{
    {funds::FidcField::TAB_I2A12_PR_CEDENTE_1, funds::FidcField::TAB_I2A12_PR_CEDENTE_2,
     funds::FidcField::TAB_I2A12_PR_CEDENTE_3, funds::FidcField::TAB_I2A12_PR_CEDENTE_4,
     funds::FidcField::TAB_I2A12_PR_CEDENTE_5, funds::FidcField::TAB_I2A12_PR_CEDENTE_6,
     funds::FidcField::TAB_I2A12_PR_CEDENTE_7, funds::FidcField::TAB_I2A12_PR_CEDENTE_8,
     funds::FidcField::TAB_I2A12_PR_CEDENTE_9},
    {funds::FidcField::TAB_I2B12_PR_CEDENTE_1, funds::FidcField::TAB_I2B12_PR_CEDENTE_2,
     funds::FidcField::TAB_I2B12_PR_CEDENTE_3, funds::FidcField::TAB_I2B12_PR_CEDENTE_4,
     funds::FidcField::TAB_I2B12_PR_CEDENTE_5, funds::FidcField::TAB_I2B12_PR_CEDENTE_6,
     funds::FidcField::TAB_I2B12_PR_CEDENTE_7, funds::FidcField::TAB_I2B12_PR_CEDENTE_8,
     funds::FidcField::TAB_I2B12_PR_CEDENTE_9},
}};

struct Report {
    funds::FidcMonthlyFact fact;
    std::vector<std::optional<double>> largest_debtors;
    std::vector<funds::FidcSegmentFact> segments;
    funds::FidcMaturityBands bands;
    std::vector<funds::FidcSeriesFact> series;
    std::vector<funds::FidcOperationFact> operations;
    std::array<std::optional<double>, kReportFields.size()> fields{};  // parallel to kReportFields
};

// The report from a detail read with kReportFields.
Report ReadReport(const funds::FidcReportDetail& detail);
// A report with only the monthly fact (no documents), for the first pass over a month.
Report ReadFact(const funds::FidcMonthlyFact& fact);

// The value of one of kReportFields, or null; throws std::logic_error for a field not in
// kReportFields.
std::optional<double> Published(const Report& report, funds::FidcField field);

}  // namespace lastro::industry
