// funds.class_portfolio_assets — GET /v1/classes/{class_id}/carteira/ativos: every public
// position of the class's CDA (cda_fi) for one exact month, in file order, paged by a keyset
// on the position's ordinal (contract 2.14, 4.4; docs/api/portfolio.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace lastro::funds {

// The document's name of a CDA block ("BLC_1" -> "Títulos Públicos do SELIC"); nullopt for
// a block the CDA layout does not define.
std::optional<std::string> CdaBlockName(const std::string& block);

// The ordinal a page starts after, from a position this operation issued; BadRequest naming
// `cursor` for anything else.
std::optional<std::int64_t> AfterOrdinal(const std::optional<boost::json::value>& position);

sdk::Result HandleClassPortfolioAssets(const sdk::RequestContext& context);

}  // namespace lastro::funds
