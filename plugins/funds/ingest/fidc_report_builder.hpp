// Turns the kept rows of one report (FidcRowStore) into the model: the FidcReport with its
// typed columns, JSON documents and derived metrics, its FidcSeries and FidcQuotaOperation.
#pragma once

#include "funds_model.hxx"
#include "ingest/fidc_member_layout.hpp"
#include "ingest/fidc_row_store.hpp"

#include <vector>

namespace lastro::funds {

struct FidcBuiltReport {
    FidcReport report;
    std::vector<FidcSeries> series;              // report_id is set when the report is persisted
    std::vector<FidcQuotaOperation> operations;  // likewise
};

class FidcReportBuilder {
public:
    // `members` holds the layout of every member a stored row can point to.
    explicit FidcReportBuilder(const std::vector<FidcMemberLayout>& members) : members_(members) {}

    FidcBuiltReport Build(const FidcReportRows& rows) const;

private:
    const std::vector<FidcMemberLayout>& members_;
};

}  // namespace lastro::funds
