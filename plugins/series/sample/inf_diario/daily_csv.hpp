// CVM's informe diário file as published (docs/sample.md, ../shared/datasets/FORMATS.md §3):
// ISO-8859-1 (every byte here is ASCII), ';', no quoting, LF line ends, a header line, decimals
// with a point, dates YYYY-MM-DD, masked CNPJs, empty field for a missing value. The header is
// the legacy one before the switch month and RCVM 175's from it on.
#pragma once

#include "sample/inf_diario/fund_universe.hpp"
#include "sample/inf_diario/quota_model.hpp"

#include <lastro/sdk/calendar.hpp>

#include <span>
#include <string>
#include <string_view>

namespace lastro::series::inf_diario {

inline constexpr std::string_view kLegacyHeader =
    "TP_FUNDO;CNPJ_FUNDO;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;RESG_DIA;NR_COTST";
inline constexpr std::string_view kClassHeader =
    "TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;DT_COMPTC;VL_TOTAL;VL_QUOTA;VL_PATRIM_LIQ;CAPTC_DIA;"
    "RESG_DIA;NR_COTST";

// inf_diario_fi_YYYYMM
std::string MonthFileStem(const sdk::Month& month);

// The bytes of `month`'s CSV member: its era's header, then `rows` in the order given.
std::string RenderMonth(const sdk::Month& month, std::span<const DailyRow> rows, const Universe& universe,
                        const Calendar& calendar);

}  // namespace lastro::series::inf_diario
