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
        registrar.AddSampleWriter(std::make_shared<SgsSampleWriter>(catalog->Specs()));
    }

private:
    std::shared_ptr<const SeriesCatalog> catalog_;
};

}  // namespace lastro::series

LASTRO_PLUGIN(lastro::series::SeriesPlugin)
