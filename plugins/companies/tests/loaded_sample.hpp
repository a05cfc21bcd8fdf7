// A plugin database (SQLite, or PostgreSQL with LASTRO_TEST_BACKEND) with the whole sample of the
// companies plugin ingested as lastro would: every dataset, and the derived datasets rebuilt.
// For the tests that read across datasets (the forms' derivations, the query plans).
#pragma once

#include "derive/form_derivations.hpp"
#include "domain/documents/document_rules.hpp"
#include "domain/filings/filing_rules.hpp"
#include "domain/filings/share_rules.hpp"
#include "domain/issuances/issuance_rules.hpp"
#include "domain/registry/registry_rules.hpp"
#include "ingest/cad_cia_aberta/registry_ingester.hpp"
#include "ingest/filings/filing_ingester.hpp"
#include "ingest/inf_mensal/inf_mensal_ingester.hpp"
#include "ingest/ipe_cia_aberta/ipe_ingester.hpp"
#include "ingest/oferta_distribuicao/oferta_ingester.hpp"
#include "sample/sample_writer.hpp"

#include <lastro/sdk/testing/fake_host.hpp>
#include <lastro/sdk/testing/plugin_calls.hpp>
#include <lastro/sdk/testing/plugin_database.hpp>

#include <odb/transaction.hxx>

#include <filesystem>
#include <string>

namespace lastro::companies {

class LoadedSample : public sdk::testing::PluginDatabase {
public:
    static constexpr std::time_t kIngest = 1790000000;  // 2026-09-21

    explicit LoadedSample(sdk::testing::Backend backend = sdk::testing::DefaultBackend())
        : PluginDatabase("companies", backend) {
        for (std::string_view dataset :
             {kRegistryDataset, kIpeDataset, kFre.dataset, kFca.dataset, kSecuritiesDataset, kSharesDataset,
              kInfMensalCriDataset, kInfMensalCraDataset, kOfertaDataset}) {
            host_.SetRelease(std::string(dataset), "r");
        }
        CompaniesSampleWriter writer;
        writer.Write({Subdir("sample"), sdk::kDefaultSampleSeed, sdk::SampleScale::kSample});
        RegistryIngester registry;
        Ingest(registry, kRegistryDataset, {"cad_cia_aberta.csv"});
        IpeIngester ipe;
        Ingest(ipe, kIpeDataset, {"ipe_cia_aberta_2025.zip", "ipe_cia_aberta_2026.zip"});
        FilingIngester fre(kFre);
        Ingest(fre, kFre.dataset, {"fre_cia_aberta_2022.zip", "fre_cia_aberta_2025.zip"});
        FilingIngester fca(kFca);
        Ingest(fca, kFca.dataset, {"fca_cia_aberta_2026.zip"});
        InfMensalIngester cri(CertificateKind::kCri);
        Ingest(cri, kInfMensalCriDataset, {"inf_mensal_cri_2025.zip", "inf_mensal_cri_2026.zip"});
        InfMensalIngester cra(CertificateKind::kCra);
        Ingest(cra, kInfMensalCraDataset, {"inf_mensal_cra_2025.zip", "inf_mensal_cra_2026.zip"});
        OfertaIngester offerings;
        Ingest(offerings, kOfertaDataset, {"oferta_distribuicao.zip"});
        SecuritiesDerivation securities;
        sdk::testing::RunDerivation(securities, Db(), std::string(kSecuritiesDataset),
                                    std::string(kFca.dataset), std::nullopt, services_, kIngest);
        SharesDerivation shares;
        sdk::testing::RunDerivation(shares, Db(), std::string(kSharesDataset), std::string(kFre.dataset),
                                    std::nullopt, services_, kIngest);
    }

    std::filesystem::path Sample(const std::string& name) { return Subdir("sample") / name; }

    sdk::Result Call(const sdk::Handler& handler, const sdk::Params& params,
                     const std::optional<boost::json::value>& cursor = std::nullopt) {
        return sdk::testing::CallHandler(handler, Db(), params, host_, cursor);
    }

    // `read(db)` in a transaction of its own.
    template <typename Reading>
    auto Read(Reading read) {
        odb::transaction transaction(Db().begin());
        auto result = read(Db());
        transaction.commit();
        return result;
    }

private:
    void Ingest(sdk::Ingester& ingester, std::string_view dataset, std::initializer_list<std::string> files) {
        std::vector<std::filesystem::path> paths;
        for (const std::string& file : files) {
            paths.push_back(Sample(file));
        }
        sdk::testing::RunIngest(ingester, Db(), std::string(dataset), paths, kIngest);
    }

    sdk::testing::FakeHost host_;
    sdk::testing::FakeServices services_;
};

}  // namespace lastro::companies
