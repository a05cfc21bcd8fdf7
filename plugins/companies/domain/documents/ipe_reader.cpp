#include "domain/documents/ipe_reader.hpp"

#include "domain/required_columns.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

namespace lastro::companies {

namespace {

// The position of `name` in IpeReader::kColumns; only used in constant expressions below, where a
// name not in the list does not compile.
consteval std::size_t Column(std::string_view name) {
    return ColumnIndex(IpeReader::kColumns, name);
}

constexpr std::size_t kCnpj = Column("CNPJ_Companhia");
constexpr std::size_t kName = Column("Nome_Companhia");
constexpr std::size_t kCode = Column("Codigo_CVM");
constexpr std::size_t kReference = Column("Data_Referencia");
constexpr std::size_t kCategory = Column("Categoria");
constexpr std::size_t kType = Column("Tipo");
constexpr std::size_t kSpecies = Column("Especie");
constexpr std::size_t kSubject = Column("Assunto");
constexpr std::size_t kDelivered = Column("Data_Entrega");
constexpr std::size_t kPresentation = Column("Tipo_Apresentacao");
constexpr std::size_t kProtocol = Column("Protocolo_Entrega");
constexpr std::size_t kVersion = Column("Versao");
constexpr std::size_t kLink = Column("Link_Download");

bool IsLink(std::string_view text) {
    return text.starts_with("https://") || text.starts_with("http://");
}

}  // namespace

IpeReader::IpeReader(std::unique_ptr<sdk::ByteSource> source)
    : csv_(std::move(source)), index_(RequireColumns(csv_, kColumns)) {}

ReadOutcome IpeReader::Next(DocumentRecord& record, std::string& problem) {
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
    try {
        record.protocol = csv_.RequiredText(at(kProtocol));
        const auto version = csv_.Integer(at(kVersion), sdk::Sign::kNonNegative);
        if (!version) {
            csv_.Fail(at(kVersion), "is empty");
        }
        record.version = *version;
        const auto code = csv_.Integer(at(kCode), sdk::Sign::kNonNegative);
        if (!code) {
            csv_.Fail(at(kCode), "is empty");
        }
        if (*code == 0) {
            csv_.Fail(at(kCode), "is not a CVM code", csv_.Field(at(kCode)));
        }
        record.cvm_code = *code;
        record.cnpj = sdk::ClassifyDocument(csv_.Field(at(kCnpj)));
        record.company_name = csv_.Text(at(kName));
        record.reference_date = csv_.IsoDate(at(kReference));
        record.delivered_at = csv_.IsoDate(at(kDelivered));
        record.category = csv_.Text(at(kCategory));
        record.type = csv_.Text(at(kType));
        record.species = csv_.Text(at(kSpecies));
        record.subject = csv_.Text(at(kSubject));
        record.presentation = csv_.Text(at(kPresentation));
        record.link = csv_.Text(at(kLink));
        if (record.link && !IsLink(*record.link)) {
            csv_.Fail(at(kLink), "is not an http(s) link", *record.link);
        }
    } catch (const sdk::FieldError& error) {
        problem = error.Reason();
        return ReadOutcome::kRejected;
    }
    return ReadOutcome::kRow;
}

}  // namespace lastro::companies
