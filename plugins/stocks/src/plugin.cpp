// The stocks plugin: B3's listed stocks (docs/README.md).
#include "domain/corporate_actions/corporate_actions.hpp"
#include "ingest/company_details/company_details_ingester.hpp"
#include "ingest/corporate_actions/corporate_actions_ingester.hpp"
#include "ingest/index_membership/index_membership_ingester.hpp"
#include "src/events_handlers.hpp"

#include <lastro/sdk/plugin.hpp>

#include <memory>

namespace lastro::stocks {

class StocksPlugin : public sdk::Plugin {
public:
    void Register(sdk::Registrar& registrar) override {
        registrar.AddIngester(std::string(kCorporateActionsDataset),
                              std::make_shared<CorporateActionsIngester>());
        registrar.AddIngester(std::string(kCompanyDetailsDataset),
                              std::make_shared<CompanyDetailsIngester>());
        registrar.AddIngester(std::string(kIndexMembershipDataset),
                              std::make_shared<IndexMembershipIngester>());
        registrar.AddHandler("stocks.ticker_events", &HandleTickerEvents);
        registrar.AddHandler("stocks.events", &HandleEvents);
    }
};

}  // namespace lastro::stocks

LASTRO_PLUGIN(lastro::stocks::StocksPlugin)
