// The series plugin: the Central Bank's SGS series (docs/README.md). Its datasets are manifest
// entries (one `bcb.sgs.<code>` each, with `properties:`), so the catalog, the ingesters and
// the sample writer are made from what the manifest declares, not from a list in code.
#include "ingest/inf_diario/inf_diario_ingester.hpp"
#include "ingest/sgs/sgs_ingester.hpp"
#include "sample/sample_writer.hpp"
#include "src/handlers.hpp"
#include "src/series_catalog.hpp"

#include <lastro/sdk/plugin.hpp>

#include <memory>

namespace lastro::series {

class SeriesPlugin : public sdk::Plugin {
public:
    void Register(sdk::Registrar& registrar) override {
        // The SGS series are manifest entries; the funds' daily reports are this plugin's code.
        catalog_ = std::make_shared<const SeriesCatalog>(registrar.DeclaredDatasets());
        registrar.AddIngester(std::string(kInfDiarioDataset), std::make_shared<InfDiarioIngester>());
        registrar.AddHandler("series.fund_performance",
                             [catalog = catalog_](const sdk::RequestContext& context) {
                                 return HandleFundPerformance(*catalog, context);
                             });
        registrar.AddHandler("series.fund_identities", [this](const sdk::RequestContext& context) {
            return HandleFundIdentities(locator_, context);
        });
        std::shared_ptr<const SeriesCatalog> catalog = catalog_;
        registrar.AddHandler("series.macro_values", [catalog](const sdk::RequestContext& context) {
            return HandleMacroValues(*catalog, context);
        });
        registrar.AddHandler("series.cdi_daily", [catalog](const sdk::RequestContext& context) {
            return HandleCdiDaily(*catalog, context);
        });
        registrar.AddHandler("series.macro_table", [catalog](const sdk::RequestContext& context) {
            return HandleMacroTable(*catalog, context);
        });
        for (const SeriesSpec& spec : catalog->Specs()) {
            registrar.AddIngester(spec.dataset, std::make_shared<SgsIngester>(spec));
        }
        registrar.AddSampleWriter(std::make_shared<SeriesSampleWriter>(catalog->Specs()));
    }

    void Start(const sdk::StartContext& context) override {
        locator_ = &context.services.Get<funds::FundLocator>();
    }

private:
    std::shared_ptr<const SeriesCatalog> catalog_;
    const funds::FundLocator* locator_ = nullptr;  // set at Start, before any call
};

}  // namespace lastro::series

LASTRO_PLUGIN(lastro::series::SeriesPlugin)
