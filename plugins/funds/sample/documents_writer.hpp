// Renders the documents of FIDC-family classes and funds as CVM's eventual filings of funds
// (cvm.eventual_fi): eventual_fi_2025.csv and eventual_fi_2026.csv, one row per document
// received that year, with the real header (real/cvm_headers/eventual_fi_header.csv).
#pragma once

#include "sample/kit.hpp"
#include "sample/universe.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::funds::sample {

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

std::string EventualFileName(int year);  // eventual_fi_2025.csv

struct DocumentFiles {
    std::vector<ArchiveMember> files;  // 2025, then 2026 (received up to the day before the reference date)
    std::size_t documents = 0;
    std::string busiest_cnpj;  // masked: the class with the most documents (pagination)
};

DocumentFiles RenderDocuments(const Universe& universe);

}  // namespace lastro::funds::sample
