// The companies plugin's operations (manifest.yaml), one function each.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::companies {

// GET /v1/companhias (src/companies_list.cpp).
sdk::Result HandleCompanies(const sdk::RequestContext& context);
// GET /v1/companhias/{cvm_code}/documentos (src/company_documents.cpp).
sdk::Result HandleCompanyDocuments(const sdk::RequestContext& context);
// GET /v1/companhias/fre/{cnpj}/{table}/linhas (src/fre_rows.cpp).
sdk::Result HandleFreRows(const sdk::RequestContext& context);
// GET /v1/emissoes (src/issuances_list.cpp).
sdk::Result HandleIssuances(const sdk::RequestContext& context);

}  // namespace lastro::companies
