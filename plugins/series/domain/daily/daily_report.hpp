// One record of CVM's daily fund report (Informe Diário, `inf_diario_fi_YYYYMM.csv`): a fund's or
// a class's (or a subclass's) quota, net worth and flows on one day, with the values' text as
// published (docs: ../shared/datasets/DATASETS-2.md §1.2, FORMATS.md §3).
#pragma once

#include <lastro/sdk/calendar.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lastro::series {

// The header a file carries, told by its column names (never their positions).
enum class DailyReportLayout {
    kEarly,    // no type column: CNPJ_FUNDO;DT_COMPTC;VL_TOTAL;... (early years)
    kLegacy,   // TP_FUNDO;CNPJ_FUNDO;DT_COMPTC;...
    kClasses,  // RCVM 175: TP_FUNDO_CLASSE;CNPJ_FUNDO_CLASSE;ID_SUBCLASSE;DT_COMPTC;...
};

struct DailyReportRow {
    std::size_t line = 0;   // 1-based line of the file
    std::string fund_type;  // TP_FUNDO or TP_FUNDO_CLASSE as published (trimmed); "" in the early layout
    std::string cnpj;       // 14 digits
    std::string subclass;   // ID_SUBCLASSE as published (trimmed), "" when blank or absent
    sdk::Date day;          // DT_COMPTC
    // The decimals' text exactly as published (trimmed): "44.275588000000" keeps its 12
    // decimals, "1.5" stays "1.5"; nullopt for a blank field (null stays null, never 0).
    std::optional<std::string> total;          // VL_TOTAL
    std::optional<std::string> quota;          // VL_QUOTA
    std::optional<std::string> net_worth;      // VL_PATRIM_LIQ
    std::optional<std::string> subscriptions;  // CAPTC_DIA
    std::optional<std::string> redemptions;    // RESG_DIA
    std::optional<std::int64_t> investors;     // NR_COTST
};

}  // namespace lastro::series
