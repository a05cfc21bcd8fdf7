#include "src/plugin.hpp"

#include "domain/registry/registry_rules.hpp"
#include "ingest/anbima_subclasses/anbima_ingester.hpp"
#include "ingest/cda_fi/cda_ingester.hpp"
#include "ingest/eventual_fi/documents_ingester.hpp"
#include "ingest/inf_mensal_fidc/fidc_report_ingester.hpp"
#include "ingest/registro_fundo_classe/registry_ingester.hpp"
#include "sample/sample.hpp"
#include "services/funds_services.hpp"
#include "src/class_reports.hpp"
#include "src/classes.hpp"
#include "src/delinquency_bands.hpp"
#include "src/documents.hpp"
#include "src/portfolio_assets.hpp"
#include "src/portfolio_fund_answers.hpp"
#include "src/portfolio_funds.hpp"
#include "src/quotas.hpp"
#include "src/resolve.hpp"
#include "src/screening.hpp"
#include "src/search.hpp"
#include "src/snapshot.hpp"
#include "src/subclasses.hpp"

#include <memory>
#include <string>

namespace lastro::funds {

void FundsPlugin::Register(sdk::Registrar& registrar) {
    registrar.AddHandler("funds.search", &HandleSearch);
    registrar.AddHandler("funds.resolve", &HandleResolve);
    registrar.AddHandler("funds.classes", &HandleClasses);
    registrar.AddHandler("funds.class_documents", &HandleClassDocuments);
    registrar.AddHandler("funds.class_subclasses", &HandleClassSubclasses);
    registrar.AddHandler("funds.class_portfolio_assets", &HandleClassPortfolioAssets);
    registrar.AddHandler("funds.class_portfolio_funds", &HandleClassPortfolioFunds);
    registrar.AddHandler("funds.class_quotas", &HandleClassQuotas);
    registrar.AddHandler("funds.class_quota_operations", &HandleClassQuotaOperations);
    registrar.AddHandler("funds.class_delinquency_bands", &HandleClassDelinquencyBands);
    registrar.AddHandler("funds.class_snapshot", &HandleClassSnapshot);
    registrar.AddHandler("funds.screening", &HandleScreening);
    registrar.AddIngester(std::string(kRegistryDataset), std::make_shared<RegistryIngester>());
    registrar.AddIngester(kFidcReportDataset, std::make_shared<FidcReportIngester>());
    registrar.AddIngester(kCdaDataset, std::make_shared<CdaIngester>());
    registrar.AddIngester(kDocumentsDataset, std::make_shared<DocumentsIngester>());
    registrar.AddIngester(kAnbimaDataset, std::make_shared<AnbimaIngester>());
    registrar.AddDerivation(kPortfolioFundAnswersDataset, std::make_shared<PortfolioFundAnswersDerivation>());
    registrar.AddSampleWriter(std::make_shared<sample::FundsSampleWriter>());
    registrar.Provide<FundLocator>(std::make_shared<const RegistryLocator>());
    registrar.Provide<FidcMonthlyFacts>(std::make_shared<const FidcMonthlyFactsReader>());
    registrar.Provide<FidcRegistry>(std::make_shared<const FidcRegistryReader>());
}

}  // namespace lastro::funds

LASTRO_PLUGIN(lastro::funds::FundsPlugin)
