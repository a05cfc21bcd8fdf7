// b3.index_membership: GetStockIndex.json (every ticker with the indexes it belongs to) and
// GetTheoricalPortfolio_<INDEX>.json (one index's theoretical portfolio); each file replaces its
// source's rows of stocks_index_member (docs/datasets/b3_json.md).
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::stocks {

class IndexMembershipIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::stocks
