// The reader of a structured filing's index member (fre_cia_aberta_YYYY.csv,
// fca_cia_aberta_YYYY.csv; DFP and ITR publish the same layout): one line per delivered document
// and version, CNPJ_CIA;DT_REFER;VERSAO;DENOM_CIA;CD_CVM;CATEG_DOC;ID_DOC;DT_RECEB;LINK_DOC, on the
// SDK's CvmCsvReader (ISO-8859-1, ';', columns found by header name). Each line becomes a row of
// the documents answer (docs/api/documentos.md): ID_DOC is its protocol.
#pragma once

#include "domain/documents/document_record.hpp"
#include "domain/read_outcome.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/cvm_csv.hpp>

#include <array>
#include <memory>
#include <string>
#include <string_view>

namespace lastro::companies {

class FilingIndexReader {
public:
    // Every column is required (others are ignored, in any order). Throws sdk::IngestError naming
    // the file and line 1 for another header, and for what CvmCsvReader refuses.
    static constexpr std::array<std::string_view, 9> kColumns{"CNPJ_CIA",  "DT_REFER", "VERSAO",
                                                              "DENOM_CIA", "CD_CVM",   "CATEG_DOC",
                                                              "ID_DOC",    "DT_RECEB", "LINK_DOC"};

    explicit FilingIndexReader(std::unique_ptr<sdk::ByteSource> source);

    const std::string& SourceName() const { return csv_.SourceName(); }

    // kRow: `record` holds the next document: protocol = ID_DOC (the positive integer's digits,
    // leading zeros dropped: FilingDocumentId reads it back),
    // version = VERSAO, category = CATEG_DOC, reference_date = DT_REFER, delivered_at = DT_RECEB,
    // link = LINK_DOC; type, species, subject and presentation stay empty. kRejected: `problem`
    // says why (another field count; a blank or non-integer ID_DOC, VERSAO or CD_CVM; a date that is
    // not YYYY-MM-DD; a link that is not http(s)). Throws sdk::IngestError for bytes that are not
    // text and a truncated last line.
    ReadOutcome Next(DocumentRecord& record, std::string& problem);

private:
    sdk::CvmCsvReader csv_;
    std::array<std::size_t, kColumns.size()> index_{};
};

// The document id of a record FilingIndexReader returned.
inline std::int64_t FilingDocumentId(const DocumentRecord& record) {
    return std::stoll(record.protocol);
}

}  // namespace lastro::companies
