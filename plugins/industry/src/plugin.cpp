// The industry plugin (manifest.yaml beside this folder): it requires funds, reads the FIDC
// monthly reports and the registry through the funds services, ingests CVM's legacy manager
// history itself, and keeps the aggregates as a derived dataset.
#include "src/plugin.hpp"

#include "derive/derivation.hpp"
#include "ingest/cad_fi_hist/manager_history_ingester.hpp"
#include "sample/sample_writer.hpp"
#include "src/handlers.hpp"

#include <memory>

namespace lastro::industry {

void IndustryPlugin::Register(sdk::Registrar& registrar) {
    registrar.AddHandler("industry.indicators", &HandleIndicators);
    registrar.AddHandler("industry.manager_ranking", &HandleManagerRanking);
    registrar.AddIngester("cvm.cad_fi_hist", std::make_shared<ManagerHistoryIngester>());
    registrar.AddDerivation(kAggregatesDataset, std::make_shared<AggregatesDerivation>());
    registrar.AddSampleWriter(std::make_shared<sample::IndustrySampleWriter>());
}

}  // namespace lastro::industry

LASTRO_PLUGIN(lastro::industry::IndustryPlugin)
