#include "domain/filings/filing_table_reader.hpp"

#include "domain/filings/filing_rules.hpp"
#include "domain/required_columns.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <set>

namespace lastro::companies {
namespace {

constexpr std::size_t kCnpj = 0;
constexpr std::size_t kReference = 1;
constexpr std::size_t kVersion = 2;
constexpr std::size_t kDocument = 3;

bool IsCompanyName(std::string_view column) {
    return column == "Nome_Companhia" || column == "Nome_Empresarial";
}

}  // namespace

FilingTableReader::FilingTableReader(std::unique_ptr<sdk::ByteSource> source)
    : csv_(std::move(source)), key_(RequireColumns(csv_, kKeyColumns)) {
    std::set<std::string> seen;
    const std::vector<std::string>& header = csv_.Header();
    for (std::size_t i = 0; i < header.size(); ++i) {
        const std::string name(sdk::TrimBlanks(header[i]));
        if (name.empty()) {
            throw sdk::IngestError(SourceName(), 1,
                                   "column " + std::to_string(i + 1) + " of the header has no name");
        }
        if (!seen.insert(name).second) {
            throw sdk::IngestError(SourceName(), 1, "column " + name + " is named twice in the header");
        }
        if (std::find(kKeyColumns.begin(), kKeyColumns.end(), name) != kKeyColumns.end() ||
            IsCompanyName(name)) {
            continue;
        }
        columns_.push_back(name);
        positions_.push_back(i);
        person_.push_back(IsPersonDocumentColumn(name));
    }
}

ReadOutcome FilingTableReader::Next(FilingRow& row, std::string& problem) {
    if (!csv_.Next()) {
        return ReadOutcome::kEnd;
    }
    row.line = csv_.Line();
    row.cells.assign(columns_.size(), std::nullopt);
    if (const std::optional<std::string> count = csv_.FieldCountProblem()) {
        problem = *count;
        return ReadOutcome::kRejected;
    }
    try {
        const auto document = csv_.Integer(key_[kDocument], sdk::Sign::kNonNegative, "a document id");
        if (!document || *document == 0) {
            csv_.Fail(key_[kDocument], document ? "is not a document id" : "is empty",
                      csv_.Field(key_[kDocument]));
        }
        row.document_id = *document;
        const auto version = csv_.Integer(key_[kVersion], sdk::Sign::kNonNegative, "a version");
        if (!version) {
            csv_.Fail(key_[kVersion], "is empty");
        }
        row.version = *version;
        row.cnpj = sdk::ClassifyDocument(csv_.Field(key_[kCnpj]));
        row.reference_date = csv_.IsoDate(key_[kReference]);
    } catch (const sdk::FieldError& error) {
        problem = error.Reason();
        return ReadOutcome::kRejected;
    }
    for (std::size_t i = 0; i < columns_.size(); ++i) {
        std::optional<std::string> cell = csv_.Text(positions_[i]);
        if (cell && person_[i]) {
            cell = MaskPersonDocument(*cell);
        }
        row.cells[i] = std::move(cell);
    }
    return ReadOutcome::kRow;
}

}  // namespace lastro::companies
