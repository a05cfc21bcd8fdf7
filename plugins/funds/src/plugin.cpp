#include "src/plugin.hpp"

#include "ingest/registry_ingester.hpp"
#include "ingest/registry_rules.hpp"
#include "src/classes.hpp"
#include "src/resolve.hpp"
#include "src/search.hpp"

#include <memory>
#include <string>

namespace lastro::funds {

void FundsPlugin::Register(sdk::Registrar& registrar) {
    registrar.AddHandler("funds.search", &HandleSearch);
    registrar.AddHandler("funds.resolve", &HandleResolve);
    registrar.AddHandler("funds.classes", &HandleClasses);
    registrar.AddIngester(std::string(kRegistryDataset), std::make_shared<RegistryIngester>());
}

}  // namespace lastro::funds

LASTRO_PLUGIN(lastro::funds::FundsPlugin)
