// The companies plugin: CVM's listed companies (docs/README.md).
#include "derive/form_derivations.hpp"
#include "domain/documents/document_rules.hpp"
#include "domain/filings/share_rules.hpp"
#include "domain/issuances/issuance_rules.hpp"
#include "domain/registry/registry_rules.hpp"
#include "ingest/cad_cia_aberta/registry_ingester.hpp"
#include "ingest/filings/filing_ingester.hpp"
#include "ingest/inf_mensal/inf_mensal_ingester.hpp"
#include "ingest/ipe_cia_aberta/ipe_ingester.hpp"
#include "ingest/oferta_distribuicao/oferta_ingester.hpp"
#include "sample/sample_writer.hpp"
#include "services/listed_companies.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/plugin.hpp>

#include <memory>

namespace lastro::companies {

class CompaniesPlugin : public sdk::Plugin {
public:
    void Register(sdk::Registrar& registrar) override {
        registrar.AddIngester(std::string(kRegistryDataset), std::make_shared<RegistryIngester>());
        registrar.AddIngester(std::string(kIpeDataset), std::make_shared<IpeIngester>());
        registrar.AddIngester(std::string(kFre.dataset), std::make_shared<FilingIngester>(kFre));
        registrar.AddIngester(std::string(kFca.dataset), std::make_shared<FilingIngester>(kFca));
        registrar.AddDerivation(std::string(kSecuritiesDataset), std::make_shared<SecuritiesDerivation>());
        registrar.AddDerivation(std::string(kSharesDataset), std::make_shared<SharesDerivation>());
        registrar.AddHandler("companies.list", &HandleCompanies);
        registrar.AddHandler("companies.documents", &HandleCompanyDocuments);
        registrar.AddHandler("companies.fre_rows", &HandleFreRows);
        registrar.AddIngester(std::string(kInfMensalCriDataset),
                              std::make_shared<InfMensalIngester>(CertificateKind::kCri));
        registrar.AddIngester(std::string(kInfMensalCraDataset),
                              std::make_shared<InfMensalIngester>(CertificateKind::kCra));
        registrar.AddIngester(std::string(kOfertaDataset), std::make_shared<OfertaIngester>());
        registrar.AddHandler("companies.issuances", &HandleIssuances);
        registrar.AddSampleWriter(std::make_shared<CompaniesSampleWriter>());
        registrar.Provide<ListedCompanies>(std::make_shared<const ListedCompaniesReader>());
    }
};

}  // namespace lastro::companies

LASTRO_PLUGIN(lastro::companies::CompaniesPlugin)
