// cvm.eventual_fi (docs/datasets/eventual_fi.md): the published columns of eventual_fi_YYYY.csv,
// in file order (real/cvm_headers/eventual_fi_header.csv). Files before RCVM 175 name two of
// them CNPJ_FUNDO and TP_FUNDO.
#pragma once

#include "layouts/columns.hpp"

#include <array>
#include <string_view>

namespace lastro::funds {

inline constexpr std::array<std::string_view, 11> kEventualColumns{"TP_FUNDO_CLASSE",
                                                                   "CNPJ_FUNDO_CLASSE",
                                                                   "DENOM_SOCIAL",
                                                                   "ID_SUBCLASSE",
                                                                   "DT_COMPTC",
                                                                   "DT_RECEB",
                                                                   "TP_DOC",
                                                                   "NM_ARQ",
                                                                   "ID_DOC",
                                                                   "LINK_ARQ",
                                                                   "RESULTADO_AUDITORIA"};

}  // namespace lastro::funds
