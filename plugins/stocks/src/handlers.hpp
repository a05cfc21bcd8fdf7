// The handlers of the stocks plugin's operations (manifest.yaml; docs/api/).
#pragma once

#include <lastro/companies/services.hpp>
#include <lastro/sdk/plugin.hpp>
#include <lastro/sdk/result.hpp>

namespace lastro::stocks {

// GET /v1/acoes (docs/api/acoes.md).
sdk::Result HandleStocks(const sdk::RequestContext& context);
// GET /v1/acoes/{ticker}/cotacoes (docs/api/cotacoes.md).
// The history of a renamed ticker runs through the company's tickers of the same class
// (companies.listed).
sdk::Result HandleQuotes(const sdk::RequestContext& context, const companies::ListedCompanies& companies);

}  // namespace lastro::stocks
