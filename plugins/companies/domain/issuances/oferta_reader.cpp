#include "domain/issuances/oferta_reader.hpp"

#include "domain/issuances/issuance_rules.hpp"
#include "domain/issuances/reader_columns.hpp"

namespace lastro::companies {

namespace {

// The columns read, in the order of this enumeration, under each regime's names ("" where the
// regime has no such column).
enum Column {
    kAsset,
    kIssuer,
    kIssuerName,
    kLeader,
    kProcess,
    kRegistration,
    kEmission,
    kSeries,
    kOfferType,
    kStatus,
    kRequested,
    kRegistered,
    kClosed,
    kApproved,
    kIssued,
    kMaturity,
    kQuantity,
    kValue,
    kLastro,
    kFiduciary,
    kColumnCount
};

std::vector<std::string_view> Names(OfferingRegime regime) {
    if (regime == OfferingRegime::kLegacy) {
        return {"Tipo_Ativo",
                "CNPJ_Emissor",
                "Nome_Emissor",
                "Nome_Lider",
                "Numero_Processo",
                "Numero_Registro_Oferta",
                "Emissao",
                "Serie",
                "Tipo_Oferta",
                "",
                "Data_Protocolo",
                "Data_Registro_Oferta",
                "Data_Encerramento_Oferta",
                "",
                "Data_Emissao",
                "Data_Vencimento",
                "Quantidade_Total",
                "Valor_Total",
                "",
                "Oferta_Regime_Fiduciario"};
    }
    return {"Valor_Mobiliario",
            "CNPJ_Emissor",
            "Nome_Emissor",
            "Nome_Lider",
            "Numero_Processo",
            "Numero_Requerimento",
            "Emissao",
            "",
            "Tipo_Oferta",
            "Status_Requerimento",
            "Data_requerimento",
            "Data_Registro",
            "Data_Encerramento",
            "Data_deliberacao_aprovou_oferta",
            "",
            "",
            "Qtde_Total_Registrada",
            "Valor_Total_Registrado",
            "Tipo_lastro",
            "Regime_fiduciario"};
}

// Both regimes write some dates YYYY-MM-DD and others DD/MM/YYYY (RCVM 160's
// Data_deliberacao_aprovou_oferta): either is read, anything else is refused.
std::optional<std::string> AnyDate(const sdk::CsvReader& csv, std::size_t column) {
    const std::string_view text = sdk::TrimBlanks(csv.Field(column));
    if (text.empty()) {
        return std::nullopt;
    }
    for (sdk::DateFormat format : {sdk::DateFormat::kIso, sdk::DateFormat::kBrazilian}) {
        const sdk::Parsed<sdk::Date> date = sdk::ParseDate(text, format);
        if (date.status == sdk::ValueStatus::kValue) {
            return date.value.ToString();
        }
    }
    csv.Fail(column, "is not a date (YYYY-MM-DD or DD/MM/YYYY)", text);
}

// A quantity or value: a plain decimal with a point, or with a comma where no point is written.
std::optional<std::string> AnyDecimal(const sdk::CsvReader& csv, std::size_t column) {
    const std::string_view text = sdk::TrimBlanks(csv.Field(column));
    if (text.empty()) {
        return std::nullopt;
    }
    if (sdk::CheckDecimal(text) == sdk::ValueStatus::kValue) {
        return std::string(text);
    }
    if (sdk::CheckDecimal(text, {.point = ','}) == sdk::ValueStatus::kValue) {
        std::string point(text);
        point[point.find(',')] = '.';
        return point;
    }
    csv.Fail(column, "is not a number", text);
}

}  // namespace

OfferingReader::OfferingReader(std::unique_ptr<sdk::ByteSource> source, OfferingRegime regime)
    : csv_(std::move(source)), regime_(regime) {
    std::vector<std::string_view> present;
    const std::vector<std::string_view> names = Names(regime);
    for (std::string_view name : names) {
        if (!name.empty()) {
            present.push_back(name);
        }
    }
    const std::vector<std::size_t> found = RequireColumns(csv_, present);
    std::size_t next = 0;
    for (std::string_view name : names) {
        // A column the regime lacks points past every field: Field() gives "" there, a blank.
        index_.push_back(name.empty() ? static_cast<std::size_t>(-1) : found[next++]);
    }
}

ReadOutcome OfferingReader::Next(OfferingRecord& o, std::string& problem) {
    while (csv_.Next()) {
        o = OfferingRecord{};
        o.line = csv_.Line();
        o.regime = regime_;
        o.asset = std::string(sdk::TrimBlanks(csv_.Field(index_[kAsset])));
        const std::optional<CertificateKind> kind = KindOfAsset(o.asset);
        if (!kind) {
            ++others_;  // shares, debentures, fund quotas... (a broken line of them too)
            continue;
        }
        o.kind = *kind;
        if (const std::optional<std::string> count = csv_.FieldCountProblem()) {
            problem = *count;
            return ReadOutcome::kRejected;
        }
        try {
            return Read(o);
        } catch (const sdk::FieldError& error) {
            problem = error.Reason();
            return ReadOutcome::kRejected;
        }
    }
    return ReadOutcome::kEnd;
}

ReadOutcome OfferingReader::Read(OfferingRecord& o) {
    auto text = [&](Column column) { return csv_.Text(index_[column]); };
    o.issuer = sdk::ClassifyDocument(csv_.Field(index_[kIssuer]));
    o.issuer_name = text(kIssuerName);
    o.leader_name = text(kLeader);
    o.process_number = text(kProcess);
    o.registration = text(kRegistration);
    o.emission = text(kEmission);
    o.series = text(kSeries);
    o.offer_type = text(kOfferType);
    o.status = text(kStatus);
    o.requested_at = AnyDate(csv_, index_[kRequested]);
    o.registered_at = AnyDate(csv_, index_[kRegistered]);
    o.closed_at = AnyDate(csv_, index_[kClosed]);
    o.approved_at = AnyDate(csv_, index_[kApproved]);
    o.issued_at = AnyDate(csv_, index_[kIssued]);
    o.maturity = AnyDate(csv_, index_[kMaturity]);
    o.quantity = AnyDecimal(csv_, index_[kQuantity]);
    o.value_total = AnyDecimal(csv_, index_[kValue]);
    o.lastro = text(kLastro);
    o.fiduciary_regime = text(kFiduciary);
    // RCVM 160 numbers each request; a legacy row is its process, registration, emission and series.
    if (regime_ == OfferingRegime::kRcvm160) {
        if (!o.registration) {
            csv_.Fail(index_[kRegistration], "is empty");
        }
        o.key = *o.registration;
    } else {
        if (!o.process_number && !o.registration) {
            csv_.Fail(index_[kProcess], "is empty, and so is Numero_Registro_Oferta");
        }
        o.key = o.process_number.value_or("") + "|" + o.registration.value_or("") + "|" +
                o.emission.value_or("") + "|" + o.series.value_or("");
    }
    return ReadOutcome::kRow;
}

}  // namespace lastro::companies
