#include "domain/issuances/inf_mensal_reader.hpp"

#include "domain/issuances/reader_columns.hpp"

namespace lastro::companies {

namespace {

// The columns read, in the order of the enumerations below.
enum ReportColumn {
    kIssuer,
    kCode,
    kReference,
    kVersion,
    kDelivered,
    kEmissionNumber,
    kEmissionName,
    kSeriesCount,
    kIssued,
    kIssuerName,
    kAgent,
    kLastroType,
    kLastroDetail,
    kSegment,
    kRating,
    kNetWorth
};
enum SeriesColumn {
    sIssuer,
    sCode,
    sReference,
    sVersion,
    sClass,
    sNumber,
    sOfferType,
    sCetip,
    sIsin,
    sMaturity,
    sRate,
    sSituation,
    sPaidIn,
    sQuantity,
    sUnitValue,
    sIndexers
};

std::vector<std::string_view> ReportColumns(CertificateKind kind) {
    return {"CNPJ_Emissora",
            "Codigo_Identificacao_Certificado",
            "Data_Referencia",
            "Versao",
            "Data_Entrega",
            "Numero_Emissao",
            "Nome_Emissao",
            "Quantidade_Series",
            "Data_Emissao",
            "Companhia_Emissora",
            "Agente_Fiduciario",
            "Tipo_Lastro",
            "Detalhamento_Lastro",
            kind == CertificateKind::kCri ? "Segmento_Creditos_Vinculados" : "Tipo_Segmento",
            "Agencia_Classificadora",
            "Patrimonio_Liquido_Emissao"};
}

std::vector<std::string_view> SeriesColumns(CertificateKind kind) {
    std::vector<std::string_view> columns{
        "CNPJ_Emissora",
        "Codigo_Identificacao_Certificado",
        "Data_Referencia",
        "Versao",
        "Classe",
        "Numero_Serie",
        "Tipo_Oferta",
        "Codigo_CETIP",
        "Codigo_ISIN",
        "Data_Vencimento",
        "Taxa_Juros",
        "Situacao",
        kind == CertificateKind::kCri ? "Total_Integralizado" : "Valor_Total_Integralizado",
        "Quantidade_Certificados",
        "Valor_Certificados"};
    if (kind == CertificateKind::kCri) {
        columns.push_back("Taxas_Indexadores");  // the CRA layout has no such column
    }
    return columns;
}

// The key every member's row starts with: a blank issuer or code is no certificate.
template <typename Row>
void ReadKey(const sdk::CsvReader& csv, const std::vector<std::size_t>& at, Row& row) {
    row.issuer = sdk::ClassifyDocument(csv.Field(at[0]));
    if (row.issuer.kind == sdk::DocumentKind::kBlank) {
        csv.Fail(at[0], "is empty");
    }
    row.code = csv.RequiredText(at[1]);
    row.reference_date = RequiredIsoDate(csv, at[2]);
    row.version = RequiredInteger(csv, at[3]);
}

}  // namespace

ReportReader::ReportReader(std::unique_ptr<sdk::ByteSource> source, CertificateKind kind)
    : csv_(std::move(source)), index_(RequireColumns(csv_, ReportColumns(kind))) {}

ReadOutcome ReportReader::Next(CertificateReport& r, std::string& problem) {
    if (!csv_.Next()) {
        return ReadOutcome::kEnd;
    }
    r = CertificateReport{};
    r.line = csv_.Line();
    if (const std::optional<std::string> count = csv_.FieldCountProblem()) {
        problem = *count;
        return ReadOutcome::kRejected;
    }
    try {
        ReadKey(csv_, index_, r);
        r.delivered_at = csv_.IsoDate(index_[kDelivered]);
        r.emission_number = csv_.Text(index_[kEmissionNumber]);
        r.emission_name = csv_.Text(index_[kEmissionName]);
        r.series_count = csv_.Integer(index_[kSeriesCount], sdk::Sign::kNonNegative);
        r.issued_at = csv_.IsoDate(index_[kIssued]);
        r.issuer_name = csv_.Text(index_[kIssuerName]);
        r.fiduciary_agent = csv_.Text(index_[kAgent]);
        r.lastro_type = csv_.Text(index_[kLastroType]);
        r.lastro_detail = csv_.Text(index_[kLastroDetail]);
        r.segment = csv_.Text(index_[kSegment]);
        r.rating_agency = csv_.Text(index_[kRating]);
        r.net_worth = CheckedDecimal(csv_, index_[kNetWorth]);
    } catch (const sdk::FieldError& error) {
        problem = error.Reason();
        return ReadOutcome::kRejected;
    }
    return ReadOutcome::kRow;
}

SeriesReader::SeriesReader(std::unique_ptr<sdk::ByteSource> source, CertificateKind kind)
    : csv_(std::move(source)), kind_(kind), index_(RequireColumns(csv_, SeriesColumns(kind))) {}

ReadOutcome SeriesReader::Next(CertificateSeries& s, std::string& problem) {
    if (!csv_.Next()) {
        return ReadOutcome::kEnd;
    }
    s = CertificateSeries{};
    s.line = csv_.Line();
    if (const std::optional<std::string> count = csv_.FieldCountProblem()) {
        problem = *count;
        return ReadOutcome::kRejected;
    }
    try {
        ReadKey(csv_, index_, s);
        s.class_name = csv_.Text(index_[sClass]);
        s.number = csv_.Text(index_[sNumber]);
        s.offer_type = csv_.Text(index_[sOfferType]);
        s.cetip_code = csv_.Text(index_[sCetip]);
        s.isin = csv_.Text(index_[sIsin]);
        s.maturity = csv_.IsoDate(index_[sMaturity]);
        s.rate = csv_.Text(index_[sRate]);
        s.situation = csv_.Text(index_[sSituation]);
        s.paid_in = CheckedDecimal(csv_, index_[sPaidIn]);
        s.quantity = CheckedDecimal(csv_, index_[sQuantity]);
        s.unit_value = CheckedDecimal(csv_, index_[sUnitValue]);
        if (kind_ == CertificateKind::kCri) {
            s.indexers = csv_.Text(index_[sIndexers]);
        }
    } catch (const sdk::FieldError& error) {
        problem = error.Reason();
        return ReadOutcome::kRejected;
    }
    return ReadOutcome::kRow;
}

}  // namespace lastro::companies
