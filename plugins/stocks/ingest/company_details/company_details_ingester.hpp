// b3.company_details: GetDetailsCompany_<ISSUER>.json (or an unsuffixed GetDetailsCompany.json,
// named by its issuingCompany): the issuer's CNPJ, CVM code, names, sector / subsector / segment
// and market in stocks_issuer, and its tickers with their ISINs (otherCodes) in
// stocks_issuer_code; each file replaces its issuer's details (docs/datasets/b3_json.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::stocks {

class CompanyDetailsIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::stocks
