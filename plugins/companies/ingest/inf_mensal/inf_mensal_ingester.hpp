// cvm.inf_mensal_cri and cvm.inf_mensal_cra: CVM's monthly certificate reports
// (inf_mensal_{cri,cra}_YYYY.zip); each year given replaces the stored year of its type, as a diff
// by certificate and month (docs/datasets/inf_mensal_cri.md).
#pragma once

#include "domain/issuances/issuance_record.hpp"

#include <lastro/sdk/plugin.hpp>

namespace lastro::companies {

class InfMensalIngester : public sdk::Ingester {
public:
    explicit InfMensalIngester(CertificateKind kind) : kind_(kind) {}
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;

private:
    CertificateKind kind_;
};

}  // namespace lastro::companies
