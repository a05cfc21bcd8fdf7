// The reader of CVM's index of listed companies' periodic and occasional documents
// (ipe_cia_aberta_YYYY.csv) on the SDK's CvmCsvReader: ISO-8859-1, ';', no quoting, columns found
// by header name. It streams one delivery at a time.
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

class IpeReader {
public:
    // Every column of the published layout is required (other columns are ignored, in any
    // order). Throws sdk::IngestError naming the file and line 1 for another header, and for
    // what CvmCsvReader refuses.
    static constexpr std::array<std::string_view, 13> kColumns{
        "CNPJ_Companhia",    "Nome_Companhia",    "Codigo_CVM",
        "Data_Referencia",   "Categoria",         "Tipo",
        "Especie",           "Assunto",           "Data_Entrega",
        "Tipo_Apresentacao", "Protocolo_Entrega", "Versao",
        "Link_Download"};

    explicit IpeReader(std::unique_ptr<sdk::ByteSource> source);

    const std::string& SourceName() const { return csv_.SourceName(); }

    // kRow: `record` holds the next delivery. kRejected: the line is skipped and `problem` says
    // why (another field count; a blank or non-integer Codigo_CVM or Versao; a blank
    // Protocolo_Entrega; a date that is not YYYY-MM-DD; a link that is not an http(s) URL).
    // kEnd: no more lines. Throws sdk::IngestError for bytes that are not text or a truncated
    // last line.
    ReadOutcome Next(DocumentRecord& record, std::string& problem);

private:
    sdk::CvmCsvReader csv_;
    std::array<std::size_t, kColumns.size()> index_{};
};

}  // namespace lastro::companies
