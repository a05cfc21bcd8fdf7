#include "domain/registry/cad_reader.hpp"

#include "domain/registry/registry_rules.hpp"

#include "domain/required_columns.hpp"

#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>

namespace lastro::companies {

CadReader::CadReader(std::unique_ptr<sdk::ByteSource> source) : csv_(std::move(source)) {
    RequireColumns(csv_, kRequired);
}

std::optional<std::string> CadReader::Text(const std::optional<std::size_t>& column) const {
    return column ? csv_.Text(*column) : std::nullopt;
}

std::optional<std::string> CadReader::Date(const std::optional<std::size_t>& column) const {
    return column ? csv_.IsoDate(*column) : std::nullopt;
}

PostalAddress CadReader::Address(std::string_view suffix) const {
    auto named = [&](std::string_view base) { return Column(std::string(base) + std::string(suffix)); };
    PostalAddress address;
    address.street = Text(named("LOGRADOURO"));
    address.complement = Text(named("COMPL"));
    address.district = Text(named("BAIRRO"));
    address.city = Text(named("MUN"));
    address.state = Text(named("UF"));
    address.country = Text(named("PAIS"));
    address.postal_code_published = Text(named("CEP"));
    if (address.postal_code_published) {
        address.postal_code = RestorePostalCode(*address.postal_code_published);
    }
    address.phone_area = Text(named("DDD_TEL"));
    address.phone = Text(named("TEL"));
    address.fax_area = Text(named("DDD_FAX"));
    address.fax = Text(named("FAX"));
    address.email = Text(named("EMAIL"));
    return address;
}

ReadOutcome CadReader::Next(CompanyRecord& record, std::string& problem) {
    if (!csv_.Next()) {
        return ReadOutcome::kEnd;
    }
    record = CompanyRecord{};
    record.line = csv_.Line();
    if (const std::optional<std::string> count = csv_.FieldCountProblem()) {
        problem = *count;
        return ReadOutcome::kRejected;
    }
    try {
        const std::size_t code_column = *Column("CD_CVM");
        const std::optional<std::int64_t> code = csv_.Integer(code_column, sdk::Sign::kNonNegative);
        if (!code) {
            csv_.Fail(code_column, "is empty");
        }
        if (*code == 0) {
            csv_.Fail(code_column, "is not a CVM code", csv_.Field(code_column));
        }
        record.cvm_code = *code;
        record.cnpj = sdk::ClassifyDocument(csv_.Field(*Column("CNPJ_CIA")));
        record.legal_name = Text(Column("DENOM_SOCIAL"));
        record.trade_name = Text(Column("DENOM_COMERC"));
        record.registered_at = Date(Column("DT_REG"));
        record.constituted_at = Date(Column("DT_CONST"));
        record.cancelled_at = Date(Column("DT_CANCEL"));
        record.cancel_reason = Text(Column("MOTIVO_CANCEL"));
        record.situation = Text(Column("SIT"));
        record.situation_since = Date(Column("DT_INI_SIT"));
        record.sector = Text(Column("SETOR_ATIV"));
        record.market = Text(Column("TP_MERC"));
        record.category = Text(Column("CATEG_REG"));
        record.category_since = Date(Column("DT_INI_CATEG"));
        record.issuer_phase = Text(Column("SIT_EMISSOR"));
        record.issuer_phase_since = Date(Column("DT_INI_SIT_EMISSOR"));
        record.control = Text(Column("CONTROLE_ACIONARIO"));
        record.address_type = Text(Column("TP_ENDER"));
        record.address = Address("");
        record.officer_role = Text(Column("TP_RESP"));
        record.officer_name = Text(Column("RESP"));
        record.officer_since = Date(Column("DT_INI_RESP"));
        record.officer_address = Address("_RESP");
        if (const auto auditor = Column("CNPJ_AUDITOR")) {
            record.auditor_cnpj = sdk::ClassifyDocument(csv_.Field(*auditor));
        }
        record.auditor_name = Text(Column("AUDITOR"));
    } catch (const sdk::FieldError& error) {
        problem = error.Reason();
        return ReadOutcome::kRejected;
    }
    return ReadOutcome::kRow;
}

}  // namespace lastro::companies
