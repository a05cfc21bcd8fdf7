// The stocks plugin: B3's listed stocks (docs/README.md).
#include "derive/listing_derivation.hpp"
#include "domain/corporate_actions/corporate_actions.hpp"
#include "ingest/company_details/company_details_ingester.hpp"
#include "ingest/corporate_actions/corporate_actions_ingester.hpp"
#include "ingest/cotahist/cotahist_ingester.hpp"
#include "ingest/index_membership/index_membership_ingester.hpp"
#include "sample/sample_writer.hpp"
#include "src/events_handlers.hpp"
#include "src/handlers.hpp"

#include <lastro/companies/services.hpp>
#include <lastro/sdk/plugin.hpp>
#include <lastro/sdk/problem.hpp>

#include <memory>
#include <string>

namespace lastro::stocks {

class StocksPlugin : public sdk::Plugin {
public:
    void Register(sdk::Registrar& registrar) override {
        registrar.AddIngester(std::string(kCotahistDataset), std::make_shared<CotahistIngester>());
        registrar.AddIngester(std::string(kCorporateActionsDataset),
                              std::make_shared<CorporateActionsIngester>());
        registrar.AddIngester(std::string(kCompanyDetailsDataset),
                              std::make_shared<CompanyDetailsIngester>());
        registrar.AddIngester(std::string(kIndexMembershipDataset),
                              std::make_shared<IndexMembershipIngester>());
        registrar.AddDerivation(std::string(kListingDataset), std::make_shared<ListingDerivation>());
        registrar.AddHandler("stocks.list", &HandleStocks);
        registrar.AddHandler("stocks.quotes", [this](const sdk::RequestContext& context) {
            return HandleQuotes(context, Companies());
        });
        registrar.AddHandler("stocks.ticker_events", &HandleTickerEvents);
        registrar.AddHandler("stocks.events", &HandleEvents);
        registrar.AddSampleWriter(std::make_shared<StocksSampleWriter>());
    }

    void Start(const sdk::StartContext& context) override {
        companies_ = &context.services.Get<companies::ListedCompanies>();
    }

private:
    const companies::ListedCompanies& Companies() const {
        if (!companies_) {
            throw sdk::Unavailable(
                "the companies plugin's service is not available: the stocks plugin has not started");
        }
        return *companies_;
    }

    const companies::ListedCompanies* companies_ = nullptr;
};

}  // namespace lastro::stocks

LASTRO_PLUGIN(lastro::stocks::StocksPlugin)
