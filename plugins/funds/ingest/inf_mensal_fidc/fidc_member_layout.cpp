#include "ingest/inf_mensal_fidc/fidc_member_layout.hpp"

#include <lastro/sdk/problem.hpp>

namespace lastro::funds {

FidcMemberLayout FidcMemberLayout::FromHeader(const sdk::CvmCsvReader& reader, FidcTable table) {
    FidcMemberLayout layout;
    layout.table = table;
    layout.source = reader.SourceName();
    layout.header = reader.Header();
    if (auto cnpj = reader.Find(kCnpjColumn)) {
        layout.cnpj = *cnpj;
        layout.filer_type = reader.Require(kFilerTypeColumn);
    } else if (auto legacy = reader.Find(kLegacyCnpjColumn)) {
        layout.cnpj = *legacy;
        layout.legacy_cnpj = true;
    } else {
        throw sdk::IngestError(layout.source, 1,
                               "missing column " + std::string(kCnpjColumn) + " (or " +
                                   std::string(kLegacyCnpjColumn) + " in the older layout)");
    }
    layout.date = reader.Require(kDateColumn);
    layout.name = reader.Require(kNameColumn);
    for (const FidcColumn& column : TypedColumnsOf(table)) {
        layout.typed.push_back(column.required ? std::optional(reader.Require(column.name))
                                               : reader.Find(column.name));
    }
    return layout;
}

}  // namespace lastro::funds
