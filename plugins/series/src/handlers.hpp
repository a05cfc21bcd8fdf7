// The plugin's operations (manifest.yaml), one file each; docs/api/ describes their answers.
#pragma once

#include "src/series_catalog.hpp"

#include <lastro/funds/services.hpp>
#include <lastro/sdk/plugin.hpp>

namespace lastro::series {

// GET /v1/macroeconomia/{serie_id}
sdk::Result HandleMacroValues(const SeriesCatalog& catalog, const sdk::RequestContext& context);
// GET /v1/benchmarks/cdi/serie-diaria
sdk::Result HandleCdiDaily(const SeriesCatalog& catalog, const sdk::RequestContext& context);
// GET /v1/macroeconomia?series=11,12,433
sdk::Result HandleMacroTable(const SeriesCatalog& catalog, const sdk::RequestContext& context);
// GET /v1/series-diarias/{cnpj}/desempenho (src/daily/)
sdk::Result HandleFundPerformance(const SeriesCatalog& catalog, const sdk::RequestContext& context);
// GET /v1/series-diarias/{cnpj}/identidades (src/daily/); `locator` null: no registry links.
sdk::Result HandleFundIdentities(const funds::FundLocator* locator, const sdk::RequestContext& context);

}  // namespace lastro::series
