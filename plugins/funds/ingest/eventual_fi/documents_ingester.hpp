// Ingester of CVM's fund documents index (dataset cvm.eventual_fi, docs/datasets/eventual_fi.md):
// each eventual_fi_YYYY file is the full snapshot of year YYYY and replaces that year's rows.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::funds {

class DocumentsIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::funds
