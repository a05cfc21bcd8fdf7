// Renders the history as CVM's FIDC monthly report (cvm.inf_mensal_fidc, FORMATS.md §1):
// one member per table and month, `inf_mensal_fidc_tab_<T>_YYYYMM.csv`, ISO-8859-1, ';',
// masked CNPJs. Months before 2024-12 use the layout keyed on CNPJ_FUNDO.
#pragma once

#include "layouts/inf_mensal_fidc.hpp"
#include "sample/kit.hpp"
#include "sample/monthly_history.hpp"

#include <lastro/sdk/calendar.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds::sample {

// The columns a month is written with: before 2024-12 every table starts with CNPJ_FUNDO
// instead of TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE, tab_I lacks CLASSE_UNICA, CLASSE, CNPJ_CLASSE
// and TAB_I2C5_VL_COTA_FIF, and tab_X_1 lacks ID_SUBCLASSE.
std::vector<std::string_view> FidcMonthColumns(FidcTable table, const sdk::Month& month);
// Whether the month's zip has the table (tab_VIII only from 2026-07).
bool FidcMonthHasTable(FidcTable table, const sdk::Month& month);

std::string FidcMemberName(FidcTable table, const sdk::Month& month);  // inf_mensal_fidc_tab_I_202608.csv
std::string FidcMonthlyZipName(const sdk::Month& month);               // inf_mensal_fidc_202608.zip
std::string FidcYearlyZipName(int year);                               // inf_mensal_fidc_2024.zip

struct FidcMonth {
    std::vector<ArchiveMember> members;  // in table order, ISO-8859-1
    std::size_t reports = 0;             // classes reporting as Classe (or by fund CNPJ, old layout)
    std::size_t fund_reports = 0;        // fund-level reports beside their classes' (Fundo)
};

// One month's members (`month` must be one the history covers). Rows are ordered by the
// reporting CNPJ; the month's irregularities and named cases (monthly_history.hpp) are written
// as planned.
FidcMonth RenderFidcMonth(const History& history, const std::vector<Institution>& administrators,
                          const sdk::Month& month);

}  // namespace lastro::funds::sample
