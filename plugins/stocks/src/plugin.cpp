// The stocks plugin: B3's listed stocks (docs/README.md).
#include "ingest/cotahist/cotahist_ingester.hpp"

#include <lastro/sdk/plugin.hpp>

#include <memory>
#include <string>

namespace lastro::stocks {

class StocksPlugin : public sdk::Plugin {
public:
    void Register(sdk::Registrar& registrar) override {
        registrar.AddIngester(std::string(kCotahistDataset), std::make_shared<CotahistIngester>());
    }
};

}  // namespace lastro::stocks

LASTRO_PLUGIN(lastro::stocks::StocksPlugin)
