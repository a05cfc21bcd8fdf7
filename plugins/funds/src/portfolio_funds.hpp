// funds.class_portfolio_funds — GET /v1/classes/{class_id}/carteira/fundos: the class's
// positions in funds and classes of the registry (CDA block BLC_2) for one exact month, one row
// per invested CNPJ, with the previous month's position and the invested class's FIDC metrics
// (contract 2.8, 4.4; docs/api/portfolio.md).
#pragma once

#include "funds_model.hxx"

#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/plugin.hpp>

namespace odb {
class database;
}

namespace lastro::funds {

// The answer for `holder`'s CDA of `month` (its holder.month), read from the CDA, the
// registry, the FIDC reports and ANBIMA's subclasses as they stand: about a dozen statements,
// which is why the answers of the holders with positions in funds are stored at ingest
// (src/portfolio_fund_answers.hpp).
PortfolioFundAnswer BuildPortfolioFundAnswer(odb::database& db, const CdaHolder& holder,
                                             const sdk::Month& month);

// The stored answer when there is one, else the answer built from the data.
sdk::Result HandleClassPortfolioFunds(const sdk::RequestContext& context);

}  // namespace lastro::funds
