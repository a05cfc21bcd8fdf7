// A year of one document index (IPE, or the index member of the FRE or FCA zips) staged in bulk,
// one row kept per (protocol, version), then compared with the stored year of that kind and
// applied to companies_document in a few set-based statements, on both backends
// (docs/datasets/ipe_cia_aberta.md, "The key, and a year as a diff").
#pragma once

#include "domain/documents/document_record.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/plugin.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace lastro::companies {

class DocumentIndexStage {
public:
    // Creates the temporary stage on the transaction's connection.
    DocumentIndexStage(odb::database& db, std::string_view kind, int year);
    ~DocumentIndexStage();

    // `delivery` groups a delivery's versions (the protocol for IPE; FilingDelivery for forms).
    void Add(const DocumentRecord& record, const std::string& delivery);
    std::size_t NotCnpj() const { return not_cnpj_; }

    // Ends the load. A delivery listed twice keeps its later line: the earlier ones are dropped,
    // counted as rejected and the first few named in notices. Then the stored year of the kind
    // is replaced by the staged one, the counts added to `summary`. Call once.
    void Apply(const std::string& source, const std::string& seen_at, sdk::RejectionLog& log,
               sdk::IngestSummary& summary);

private:
    odb::database& db_;
    std::string kind_;
    int year_;
    std::unique_ptr<sdk::BulkLoader> load_;
    std::size_t not_cnpj_ = 0;
};

}  // namespace lastro::companies
