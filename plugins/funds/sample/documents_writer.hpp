// Renders the documents of FIDC-family classes and funds as CVM's eventual filings of funds
// (cvm.eventual_fi): eventual_fi_2025.csv and eventual_fi_2026.csv, one row per document
// received that year, with the real header (kEventualColumns, layouts/eventual_fi.hpp).
#pragma once

#include "layouts/eventual_fi.hpp"
#include "sample/kit.hpp"
#include "sample/universe.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace lastro::funds::sample {

std::string EventualFileName(int year);  // eventual_fi_2025.csv

struct DocumentFiles {
    std::vector<ArchiveMember> files;  // 2025, then 2026 (received up to the day before the reference date)
    std::size_t documents = 0;
    std::string busiest_cnpj;  // masked: the class with the most documents (pagination)
};

DocumentFiles RenderDocuments(const Universe& universe);

}  // namespace lastro::funds::sample
