// The structured forms as CVM publishes them. fre_cia_aberta_YYYY.zip (ISO-8859-1, ';', CRLF): the index
// member and one member per table of the form, for the companies of the sample universe, in two years on each
// side of CVM Resolution 59 (2023), which changed the form's tables: 2022 carries tables the new
// form dropped (capital_social_aumento), 2025 the ones it added (administrador_declaracao_genero,
// empregado_local_faixa_etaria). Some companies re-deliver their form (versions 2 and 3, each a
// new document id, every table relisted). About 130,000 table rows a year at scale full, as the
// real 2025 file has (docs/sample.md).
#pragma once

#include "sample/company_universe.hpp"
#include "sample/listing.hpp"

#include <lastro/sdk/sample/sample_directory.hpp>

#include <cstdint>
#include <string>

namespace lastro::companies {

inline constexpr int kFreOldFormYear = 2022;  // before CVM Resolution 59
inline constexpr int kFreNewFormYear = 2025;  // after

// The cases planted at every scale, on the company with the accented name (docs/sample.md).
struct FilingCases {
    std::int64_t cvm_code = 0;
    std::string cnpj;  // 14 digits
    // Its 2025 form was delivered three times: these days, versions 1, 2 and 3.
    std::string delivered[3];
};

struct FilingsSample {
    std::size_t index_rows = 0;  // both years
    std::size_t table_rows = 0;  // both years
    FilingCases cases;
};

// Writes fre_cia_aberta_2022.zip and fre_cia_aberta_2025.zip into `out`.
FilingsSample WriteFreSample(sdk::sample::SampleDirectory& out, const CompanyUniverse& universe,
                             std::uint64_t seed, sdk::SampleScale scale);

// fca_cia_aberta_2026.zip: the registration form of every company registered and not cancelled,
// with its members geral (the company) and valor_mobiliario (each security: listed companies'
// shares with their tickers, segment and dates; over-the-counter debentures without one). A
// company's ticker stem is four letters spelling its CVM code in base 26 (SampleTickerStem), so
// tickers are unique and other samples can name them (SampleListing, drawn by the same code).
struct SecuritiesSample {
    std::size_t index_rows = 0;
    std::size_t table_rows = 0;
    SecuritiesCases cases;
};

SecuritiesSample WriteFcaSample(sdk::sample::SampleDirectory& out, const CompanyUniverse& universe,
                                std::uint64_t seed, sdk::SampleScale scale);

}  // namespace lastro::companies
