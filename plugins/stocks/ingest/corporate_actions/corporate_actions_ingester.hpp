// b3.corporate_actions: GetListedCashDividends_<ISSUER>.json and
// GetListedSupplementCompany_<ISSUER>.json (docs/datasets/b3_json.md). Events are upserted into
// stocks_corporate_action and never deleted (B3 answers 12 months; we keep every event seen);
// the supplement's share counts go to stocks_issuer.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::stocks {

class CorporateActionsIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::stocks
