#include "ingest/fidc_member_layout.hpp"

#include <lastro/sdk/problem.hpp>

#include <cstring>

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

void SplitFields(std::string_view line, std::vector<std::string_view>& fields) {
    fields.clear();
    const char* field = line.data();
    const char* end = field + line.size();
    for (;;) {
        const auto* separator =
            static_cast<const char*>(std::memchr(field, ';', static_cast<std::size_t>(end - field)));
        if (separator == nullptr) {
            fields.emplace_back(field, static_cast<std::size_t>(end - field));
            return;
        }
        fields.emplace_back(field, static_cast<std::size_t>(separator - field));
        field = separator + 1;
    }
}

}  // namespace lastro::funds
