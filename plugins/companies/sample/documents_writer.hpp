// ipe_cia_aberta_YYYY.zip as CVM publishes it (one member ipe_cia_aberta_YYYY.csv: 13 columns,
// ISO-8859-1, ';'), for the companies of the sample universe: 2025 whole and 2026 to the reference
// date, a few deliveries a company a year at scale sample, about 25 at scale full (the real 2025
// file: 49,277 rows).
#pragma once

#include "sample/company_universe.hpp"

#include <lastro/sdk/sample/sample_directory.hpp>

#include <cstdint>
#include <string>

namespace lastro::companies {

inline constexpr int kIpeFirstYear = 2025;
inline constexpr int kIpeLastYear = 2026;

// The cases planted at every scale (docs/sample.md).
struct DocumentCases {
    std::int64_t redelivered_code = 0;  // a company whose material fact of 2026 has versions 1 and 2
    std::string redelivered_protocol;
    std::string placeholder_protocol;  // a 2025 delivery whose CNPJ cell is 00.000.000/0000-00
    std::string repeated_protocol;     // a 2025 delivery listed twice (the later line kept)
};

struct DocumentsSample {
    std::size_t rows = 0;  // lines written, both years
    DocumentCases cases;
};

// Writes ipe_cia_aberta_2025.zip and ipe_cia_aberta_2026.zip into `out`.
DocumentsSample WriteIpeSample(sdk::sample::SampleDirectory& out, const CompanyUniverse& universe,
                               std::uint64_t seed, sdk::SampleScale scale);

}  // namespace lastro::companies
