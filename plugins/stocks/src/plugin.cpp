// The stocks plugin: B3's listed stocks (docs/README.md).
#include "sample/sample_writer.hpp"

#include <lastro/sdk/plugin.hpp>

#include <memory>

namespace lastro::stocks {

class StocksPlugin : public sdk::Plugin {
public:
    void Register(sdk::Registrar& registrar) override {
        registrar.AddSampleWriter(std::make_shared<StocksSampleWriter>());
    }
};

}  // namespace lastro::stocks

LASTRO_PLUGIN(lastro::stocks::StocksPlugin)
