// Renders the documents of FIDC-family classes and funds as CVM's eventual filings of funds
// (cvm.eventual_fi): eventual_fi_2025.csv and eventual_fi_2026.csv (by default), one row per
// document received that year, with the real header (kEventualColumns, layouts/eventual_fi.hpp).
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
    std::vector<ArchiveMember>
        files;  // one a year, oldest first (2026: received up to the day before the reference date)
    std::size_t documents = 0;
    std::string busiest_cnpj;  // masked: the class with the most documents (pagination)
};

inline constexpr int kFirstDocumentYear = 2025;
inline constexpr int kLastDocumentYear = 2026;

// The files of first_year .. 2026, one a year: the default sample's two years, or every year the
// full-size sample's FIDC reports cover (CVM publishes one file a year, 2005 onwards). A filer's
// draws run from first_year, so another first year gives other documents in 2025 and 2026 too.
DocumentFiles RenderDocuments(const Universe& universe, int first_year = kFirstDocumentYear);

}  // namespace lastro::funds::sample
