// funds.class_portfolio_assets — GET /v1/classes/{class_id}/carteira/ativos: every public
// position of the class's CDA (cda_fi) for one exact month, in file order, paged by a keyset
// on the position's ordinal (contract 2.14, 4.4; docs/api/portfolio.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <optional>
#include <string>

namespace lastro::funds {

// The document's name of a CDA block ("BLC_1" -> "Títulos Públicos do SELIC"); nullopt for
// a block the CDA layout does not define.
std::optional<std::string> CdaBlockName(const std::string& block);

sdk::Result HandleClassPortfolioAssets(const sdk::RequestContext& context);

}  // namespace lastro::funds
