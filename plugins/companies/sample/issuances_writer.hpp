// CVM's CRI/CRA files as CVM publishes them, for the securitizers of the sample universe
// (docs/sample.md): inf_mensal_cri_YYYY.zip and inf_mensal_cra_YYYY.zip (members
// inf_mensal_{cri,cra}_geral_YYYY.csv, _classe_YYYY.csv and _cedente_devedor_YYYY.csv, every column of
// the published headers) for 2025 and 2026 up to the reference date's previous month, and
// oferta_distribuicao.zip (oferta_distribuicao.csv and oferta_resolucao_160.csv); ISO-8859-1, ';', CRLF.
#pragma once

#include "sample/company_universe.hpp"

#include <lastro/sdk/sample/sample_directory.hpp>

#include <cstdint>
#include <string>

namespace lastro::companies {

inline constexpr int kCertificateFirstYear = 2025;
inline constexpr int kCertificateLastYear = 2026;

// The cases planted at every scale (docs/sample.md).
struct IssuanceCases {
    std::string shared_securitizer_cnpj;  // 14 digits: reports a CRI and a CRA, both with offerings
    std::string reissued_code;            // a CRI whose 2026-08 report has Versao 1 and 2
    std::string ended_code;               // a CRI whose last report is 2026-03
    std::string dirty_code;               // a CRA whose CNPJ_Emissora cell is "0"
    std::string unlisted_cnpj;            // a securitizer the registry does not list
};

struct IssuancesSample {
    std::size_t cri_reports = 0;  // rows of the general members, both years
    std::size_t cra_reports = 0;
    std::size_t offerings = 0;  // rows of both offering members, every asset
    IssuanceCases cases;
};

IssuancesSample WriteIssuancesSample(sdk::sample::SampleDirectory& out, const CompanyUniverse& universe,
                                     std::uint64_t seed, sdk::SampleScale scale);

}  // namespace lastro::companies
