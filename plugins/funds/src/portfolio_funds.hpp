// funds.class_portfolio_funds — GET /v1/classes/{class_id}/carteira/fundos: the class's
// positions in funds and classes of the registry (CDA block BLC_2) for one exact month, one row
// per invested CNPJ, with the previous month's position and the invested class's FIDC metrics
// (contract 2.8, 4.4; docs/api/portfolio.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::funds {

sdk::Result HandleClassPortfolioFunds(const sdk::RequestContext& context);

}  // namespace lastro::funds
