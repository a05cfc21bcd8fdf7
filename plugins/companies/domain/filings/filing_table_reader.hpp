// The reader of one table member of a structured filing (fre_cia_aberta_<table>_YYYY.csv,
// fca_cia_aberta_<table>_YYYY.csv), whatever the table: every member starts with the document's
// key, CNPJ_Companhia;Data_Referencia;Versao;ID_Documento and the company's name
// (Nome_Companhia, or Nome_Empresarial in the FCA), then the table's own columns, which differ
// from table to table and from year to year. The reader keeps the table's own columns as they
// come, in header order, with the person-document rule applied (filing_rules.hpp).
#pragma once

#include "domain/read_outcome.hpp"

#include <lastro/sdk/byte_source.hpp>
#include <lastro/sdk/cvm_csv.hpp>
#include <lastro/sdk/document_id.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lastro::companies {

struct FilingRow {
    std::size_t line = 0;                       // 1-based line of the member
    std::int64_t document_id = 0;               // ID_Documento: the index line it belongs to
    std::int64_t version = 0;                   // Versao
    sdk::DocumentCell cnpj;                     // CNPJ_Companhia, classified
    std::optional<std::string> reference_date;  // Data_Referencia
    // The table's own columns (FilingTableReader::Columns()), as published (trimmed), a blank
    // cell nullopt; person-document columns masked.
    std::vector<std::optional<std::string>> cells;
};

class FilingTableReader {
public:
    // The key columns every member has; the company's name, in either spelling, is not a cell.
    static constexpr std::array<std::string_view, 4> kKeyColumns{"CNPJ_Companhia", "Data_Referencia",
                                                                 "Versao", "ID_Documento"};

    // Throws sdk::IngestError (file, line 1) when a key column is missing, a column is named twice
    // or blank, and for what CvmCsvReader refuses.
    explicit FilingTableReader(std::unique_ptr<sdk::ByteSource> source);

    const std::string& SourceName() const { return csv_.SourceName(); }
    // The table's own columns, in the member's order.
    const std::vector<std::string>& Columns() const { return columns_; }

    // kRow: `row` holds the next line. kRejected: `problem` says why (another field count; a blank
    // or non-integer ID_Documento or Versao; a Data_Referencia that is not YYYY-MM-DD). Throws
    // sdk::IngestError for bytes that are not text and a truncated last line.
    ReadOutcome Next(FilingRow& row, std::string& problem);

private:
    sdk::CvmCsvReader csv_;
    std::array<std::size_t, kKeyColumns.size()> key_{};
    std::vector<std::string> columns_;
    std::vector<std::size_t> positions_;  // of each of columns_ in the member
    std::vector<bool> person_;            // columns_ under the person-document rule
};

}  // namespace lastro::companies
