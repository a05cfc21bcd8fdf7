#include "domain/filings/filing_index_reader.hpp"

#include "domain/required_columns.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

namespace lastro::companies {
namespace {

consteval std::size_t Column(std::string_view name) {
    return ColumnIndex(FilingIndexReader::kColumns, name);
}

constexpr std::size_t kCnpj = Column("CNPJ_CIA");
constexpr std::size_t kReference = Column("DT_REFER");
constexpr std::size_t kVersion = Column("VERSAO");
constexpr std::size_t kName = Column("DENOM_CIA");
constexpr std::size_t kCode = Column("CD_CVM");
constexpr std::size_t kCategory = Column("CATEG_DOC");
constexpr std::size_t kDocument = Column("ID_DOC");
constexpr std::size_t kDelivered = Column("DT_RECEB");
constexpr std::size_t kLink = Column("LINK_DOC");

}  // namespace

FilingIndexReader::FilingIndexReader(std::unique_ptr<sdk::ByteSource> source)
    : csv_(std::move(source)), index_(RequireColumns(csv_, kColumns)) {}

ReadOutcome FilingIndexReader::Next(DocumentRecord& record, std::string& problem) {
    if (!csv_.Next()) {
        return ReadOutcome::kEnd;
    }
    record = DocumentRecord{};
    record.line = csv_.Line();
    if (const std::optional<std::string> count = csv_.FieldCountProblem()) {
        problem = *count;
        return ReadOutcome::kRejected;
    }
    auto at = [&](std::size_t column) { return index_[column]; };
    auto required = [&](std::size_t column, std::string_view what) {
        const auto value = csv_.Integer(at(column), sdk::Sign::kNonNegative, what);
        if (!value) {
            csv_.Fail(at(column), "is empty");
        }
        return *value;
    };
    try {
        const std::int64_t document_id = required(kDocument, "a document id");
        if (document_id == 0) {
            csv_.Fail(at(kDocument), "is not a document id", csv_.Field(at(kDocument)));
        }
        record.protocol = std::to_string(document_id);
        record.version = required(kVersion, "a version");
        record.cvm_code = required(kCode, "a CVM code");
        if (record.cvm_code == 0) {
            csv_.Fail(at(kCode), "is not a CVM code", csv_.Field(at(kCode)));
        }
        record.cnpj = sdk::ClassifyDocument(csv_.Field(at(kCnpj)));
        record.company_name = csv_.Text(at(kName));
        record.reference_date = csv_.IsoDate(at(kReference));
        record.delivered_at = csv_.IsoDate(at(kDelivered));
        record.category = csv_.Text(at(kCategory));
        record.link = csv_.Text(at(kLink));
        if (record.link && !record.link->starts_with("https://") && !record.link->starts_with("http://")) {
            csv_.Fail(at(kLink), "is not an http(s) link", *record.link);
        }
    } catch (const sdk::FieldError& error) {
        problem = error.Reason();
        return ReadOutcome::kRejected;
    }
    return ReadOutcome::kRow;
}

}  // namespace lastro::companies
