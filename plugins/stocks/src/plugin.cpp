// The stocks plugin: B3's listed stocks (docs/README.md).
#include "derive/listing_derivation.hpp"
#include "ingest/cotahist/cotahist_ingester.hpp"
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
        registrar.AddDerivation(std::string(kListingDataset), std::make_shared<ListingDerivation>());
        registrar.AddHandler("stocks.list", &HandleStocks);
        registrar.AddHandler("stocks.quotes", [this](const sdk::RequestContext& context) {
            return HandleQuotes(context, Companies());
        });
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
