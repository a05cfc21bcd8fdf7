// Ingester of CVM's CDA portfolio disclosure (dataset cvm.cda_fi, docs/datasets/cda_fi.md):
// every month in the input replaces that month's holders and positions.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::funds {

class CdaIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::funds
