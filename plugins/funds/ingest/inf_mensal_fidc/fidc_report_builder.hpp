// Turns the kept rows of one report (FidcRowStore) into the model: the FidcReport with its
// typed columns, JSON documents and derived metrics, its FidcSeries and FidcQuotaOperation.
#pragma once

#include "funds_model.hxx"
#include "ingest/inf_mensal_fidc/fidc_member_layout.hpp"
#include "ingest/inf_mensal_fidc/fidc_row_store.hpp"

#include <cstddef>
#include <string>
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
    explicit FidcReportBuilder(const std::vector<FidcMemberLayout>& members);

    FidcBuiltReport Build(const FidcReportRows& rows) const;

    // A column of a member as published_json writes it, worked out once per member.
    struct PublishedColumn {
        std::size_t index = 0;
        std::string key;  // the header name as JSON text, with its ':'
        // Earlier columns of the same name: the first non-empty one of a name is the one kept
        // (a header never repeats a name in CVM's files, but a JSON object holds a key once).
        std::vector<std::size_t> same_name_before;
    };

private:
    const std::vector<FidcMemberLayout>& members_;
    std::vector<std::vector<PublishedColumn>> published_columns_;  // per member
    std::vector<std::size_t> published_key_bytes_;                 // per member: its keys' text
};

}  // namespace lastro::funds
