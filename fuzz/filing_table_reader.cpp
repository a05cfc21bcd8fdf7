// Fuzz target: the companies plugin's reader of any table member of a structured filing
// (plugins/companies/domain/filings/filing_table_reader.cpp, fre_cia_aberta_<table>_YYYY.csv),
// handed out in chunks of a size its length picks. Only IngestError may come out, at a line inside
// the file. Every record must end as a row that keeps the reader's promises (a positive document
// id, a version, a CNPJ only when the cell is a valid one, a YYYY-MM-DD reference date, one cell
// per column of the table, UTF-8 text, and no digits of a CPF left in a person-document column
// except the six the masking shows) or as a rejection with a reason, lines inside the file and
// ascending.
#include "fuzz_support.hpp"

#include "domain/filings/filing_rules.hpp"
#include "domain/filings/filing_table_reader.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/document_id.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace lastro;

namespace {

constexpr const char* kTarget = "filing_table_reader";
constexpr const char* kName = "fre_cia_aberta_posicao_acionaria_2025.csv";

void CheckRow(const companies::FilingTableReader& reader, const companies::FilingRow& row) {
    if (row.document_id <= 0 || row.version < 0) {
        fuzz::Broken(kTarget, row.line, "a row without its document or version");
    }
    if (row.cnpj.cnpj.has_value() != (row.cnpj.kind == sdk::DocumentKind::kCnpj) ||
        (row.cnpj.cnpj && sdk::ParseCnpj(*row.cnpj.cnpj).digits != row.cnpj.cnpj)) {
        fuzz::Broken(kTarget, row.line, "a CNPJ that is not a valid one, or a valid one not kept");
    }
    fuzz::ExpectIsoDate(kTarget, row.line, row.reference_date, "Data_Referencia");
    if (row.cells.size() != reader.Columns().size()) {
        fuzz::Broken(kTarget, row.line, "another cell count than the table's columns");
    }
    for (std::size_t i = 0; i < row.cells.size(); ++i) {
        fuzz::ExpectText(kTarget, row.line, row.cells[i], "a cell");
        if (row.cells[i] && companies::IsPersonDocumentColumn(reader.Columns()[i])) {
            // A person's document comes out masked: reading it again finds no CPF.
            if (sdk::ClassifyDocument(*row.cells[i]).kind == sdk::DocumentKind::kCpf) {
                fuzz::Broken(kTarget, row.line, "a CPF left unmasked in " + reader.Columns()[i]);
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::ReadEveryRecord<companies::FilingTableReader, companies::FilingRow>(
        kTarget, kName, data, size, CheckRow,
        [](const companies::FilingRow& row, const std::string& problem) {
            if (problem.empty() || !sdk::IsValidUtf8(problem)) {
                fuzz::Broken(kTarget, row.line,
                             "a rejection without a reason, or not UTF-8: [" + problem + "]");
            }
        });
    return 0;
}
