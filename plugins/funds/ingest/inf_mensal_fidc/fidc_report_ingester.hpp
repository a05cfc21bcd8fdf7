// Ingester of CVM's FIDC monthly report (dataset cvm.inf_mensal_fidc, docs/datasets/inf_mensal_fidc.md):
// every month present in the input replaces that month's FidcReport, FidcSeries and
// FidcQuotaOperation rows; other months stay as they are.
#pragma once

#include <lastro/sdk/plugin.hpp>

namespace lastro::funds {

class FidcReportIngester : public sdk::Ingester {
public:
    sdk::IngestSummary Run(const sdk::IngestContext& context) override;
};

}  // namespace lastro::funds
