// A FIDC monthly report as the aggregates read it: the funds service's report detail with the
// published columns the indicators use turned into numbers once (a report's ~150 published
// fields come as text; parsing them for every figure and universe cost more than the rest of the
// derivation).
#pragma once

#include <lastro/funds/services.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::industry {

// Every published column an indicator or rule reads.
inline constexpr std::array<std::string_view, 81> kReportColumns = {
    "TAB_I_VL_ATIVO",
    "TAB_I1_VL_DISP",
    "TAB_I2A_VL_DIRCRED_RISCO",
    "TAB_I2B_VL_DIRCRED_SEM_RISCO",
    "TAB_I2C_VL_VLMOB",
    "TAB_I2D_VL_TITPUB_FED",
    "TAB_I2E_VL_CDB",
    "TAB_I2F_VL_OPER_COMPROM",
    "TAB_I2G_VL_OUTRO_RF",
    "TAB_I2H_VL_COTA_FIDC",
    "TAB_I2I_VL_COTA_FIDC_NP",
    "TAB_I2J_VL_CONTRATO_FUTURO",
    "TAB_I2_VL_OUTRO_ATIVO",
    "TAB_I3_VL_POSICAO_DERIV",
    "TAB_I4_VL_OUTRO_ATIVO",
    "TAB_X_VL_LIQUIDEZ_0",
    "TAB_X_VL_LIQUIDEZ_30",
    "TAB_X_VL_LIQUIDEZ_60",
    "TAB_X_VL_LIQUIDEZ_90",
    "TAB_X_VL_LIQUIDEZ_180",
    "TAB_X_VL_LIQUIDEZ_360",
    "TAB_X_VL_LIQUIDEZ_MAIOR_360",
    "TAB_I2A12_PR_CEDENTE_1",
    "TAB_I2A12_PR_CEDENTE_2",
    "TAB_I2A12_PR_CEDENTE_3",
    "TAB_I2A12_PR_CEDENTE_4",
    "TAB_I2A12_PR_CEDENTE_5",
    "TAB_I2A12_PR_CEDENTE_6",
    "TAB_I2A12_PR_CEDENTE_7",
    "TAB_I2A12_PR_CEDENTE_8",
    "TAB_I2A12_PR_CEDENTE_9",
    "TAB_I2B12_PR_CEDENTE_1",
    "TAB_I2B12_PR_CEDENTE_2",
    "TAB_I2B12_PR_CEDENTE_3",
    "TAB_I2B12_PR_CEDENTE_4",
    "TAB_I2B12_PR_CEDENTE_5",
    "TAB_I2B12_PR_CEDENTE_6",
    "TAB_I2B12_PR_CEDENTE_7",
    "TAB_I2B12_PR_CEDENTE_8",
    "TAB_I2B12_PR_CEDENTE_9",
    "TAB_X_SCR_RISCO_DEVEDOR_AA",
    "TAB_X_SCR_RISCO_DEVEDOR_A",
    "TAB_X_SCR_RISCO_DEVEDOR_B",
    "TAB_X_SCR_RISCO_DEVEDOR_C",
    "TAB_X_SCR_RISCO_DEVEDOR_D",
    "TAB_X_SCR_RISCO_DEVEDOR_E",
    "TAB_X_SCR_RISCO_DEVEDOR_F",
    "TAB_X_SCR_RISCO_DEVEDOR_G",
    "TAB_X_SCR_RISCO_DEVEDOR_H",
    "TAB_X_NR_COTST_SENIOR_PF",
    "TAB_X_NR_COTST_SENIOR_PJ_NAO_FINANC",
    "TAB_X_NR_COTST_SENIOR_BANCO",
    "TAB_X_NR_COTST_SENIOR_CORRETORA_DISTRIB",
    "TAB_X_NR_COTST_SENIOR_PJ_FINANC",
    "TAB_X_NR_COTST_SENIOR_INVNR",
    "TAB_X_NR_COTST_SENIOR_EAPC",
    "TAB_X_NR_COTST_SENIOR_EFPC",
    "TAB_X_NR_COTST_SENIOR_RPPS",
    "TAB_X_NR_COTST_SENIOR_SEGUR",
    "TAB_X_NR_COTST_SENIOR_CAPITALIZ",
    "TAB_X_NR_COTST_SENIOR_COTA_FIDC",
    "TAB_X_NR_COTST_SENIOR_FII",
    "TAB_X_NR_COTST_SENIOR_OUTRO_FI",
    "TAB_X_NR_COTST_SENIOR_CLUBE",
    "TAB_X_NR_COTST_SENIOR_OUTRO",
    "TAB_X_NR_COTST_SUBORD_PF",
    "TAB_X_NR_COTST_SUBORD_PJ_NAO_FINANC",
    "TAB_X_NR_COTST_SUBORD_BANCO",
    "TAB_X_NR_COTST_SUBORD_CORRETORA_DISTRIB",
    "TAB_X_NR_COTST_SUBORD_PJ_FINANC",
    "TAB_X_NR_COTST_SUBORD_INVNR",
    "TAB_X_NR_COTST_SUBORD_EAPC",
    "TAB_X_NR_COTST_SUBORD_EFPC",
    "TAB_X_NR_COTST_SUBORD_RPPS",
    "TAB_X_NR_COTST_SUBORD_SEGUR",
    "TAB_X_NR_COTST_SUBORD_CAPITALIZ",
    "TAB_X_NR_COTST_SUBORD_COTA_FIDC",
    "TAB_X_NR_COTST_SUBORD_FII",
    "TAB_X_NR_COTST_SUBORD_OUTRO_FI",
    "TAB_X_NR_COTST_SUBORD_CLUBE",
    "TAB_X_NR_COTST_SUBORD_OUTRO",
};

struct Report {
    funds::FidcMonthlyFact fact;
    std::vector<std::optional<double>> largest_debtors;
    std::vector<funds::FidcSegmentFact> segments;
    funds::FidcMaturityBands bands;
    std::vector<funds::FidcSeriesFact> series;
    std::vector<funds::FidcOperationFact> operations;
    std::array<std::optional<double>, kReportColumns.size()> columns{};  // parallel to kReportColumns
};

// The report's figures from a detail read with ReportColumnNames(); a published field that is
// not a plain decimal is null.
Report ReadReport(const funds::FidcReportDetail& detail);
// kReportColumns as the funds service asks for them.
const std::vector<std::string>& ReportColumnNames();
// A report with only the monthly fact (no documents), for the first pass over a month.
Report ReadFact(const funds::FidcMonthlyFact& fact);

// The value of one of kReportColumns (by name), or null; throws std::logic_error for a column
// not in kReportColumns.
std::optional<double> Published(const Report& report, std::string_view column);

}  // namespace lastro::industry
