// Fuzz target: the companies plugin's readers of CVM's monthly CRI/CRA reports
// (plugins/companies/domain/issuances/inf_mensal_reader.cpp); the input is a general member
// (inf_mensal_cri_geral_YYYY.csv) read as CRI or as CRA, or a series member, as its length picks,
// handed out in chunks. Only IngestError may come out, at a line inside the file. Every record must
// keep the readers' promises (an issuer cell that is not blank, a code, a real YYYY-MM-DD reference
// date, a version, a CNPJ only when the cell is a valid one, real dates, decimals that are plain
// decimals, UTF-8 text) or be a rejection with a reason.
#include "fuzz_support.hpp"

#include "domain/issuances/inf_mensal_reader.hpp"

#include <lastro/sdk/cnpj.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/text.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

using namespace lastro;

namespace {

constexpr const char* kTarget = "inf_mensal_reader";

[[noreturn]] void Broken(std::size_t line, const std::string& what) {
    fuzz::Broken(kTarget, line, what);
}

void CheckDecimal(std::size_t line, const std::optional<std::string>& value, const char* what) {
    if (value && sdk::CheckDecimal(*value) != sdk::ValueStatus::kValue) {
        Broken(line, std::string(what) + " is not a plain decimal: " + *value);
    }
}

template <typename Row>
void CheckKey(const Row& r) {
    if (r.issuer.kind == sdk::DocumentKind::kBlank || r.code.empty() || !sdk::IsValidUtf8(r.code) ||
        r.version < 0) {
        Broken(r.line, "a row without its key");
    }
    if (r.issuer.cnpj.has_value() != (r.issuer.kind == sdk::DocumentKind::kCnpj) ||
        (r.issuer.cnpj && sdk::ParseCnpj(*r.issuer.cnpj).digits != r.issuer.cnpj)) {
        Broken(r.line, "a CNPJ that is not a valid one, or a valid one not kept");
    }
    fuzz::ExpectIsoDate(kTarget, r.line, r.reference_date, "Data_Referencia");
}

void CheckReport(const companies::CertificateReport& r) {
    CheckKey(r);
    fuzz::ExpectIsoDate(kTarget, r.line, r.delivered_at, "Data_Entrega");
    fuzz::ExpectIsoDate(kTarget, r.line, r.issued_at, "Data_Emissao");
    fuzz::ExpectText(kTarget, r.line, r.emission_name, "Nome_Emissao");
    fuzz::ExpectText(kTarget, r.line, r.issuer_name, "Companhia_Emissora");
    if (r.series_count && *r.series_count < 0) {
        Broken(r.line, "a negative series count");
    }
    CheckDecimal(r.line, r.net_worth, "Patrimonio_Liquido_Emissao");
}

void CheckSeries(const companies::CertificateSeries& s) {
    CheckKey(s);
    fuzz::ExpectIsoDate(kTarget, s.line, s.maturity, "Data_Vencimento");
    fuzz::ExpectText(kTarget, s.line, s.cetip_code, "Codigo_CETIP");
    CheckDecimal(s.line, s.paid_in, "paid in");
    CheckDecimal(s.line, s.quantity, "Quantidade_Certificados");
    CheckDecimal(s.line, s.unit_value, "Valor_Certificados");
}

void CheckRejection(std::size_t line, const std::string& problem) {
    if (problem.empty() || !sdk::IsValidUtf8(problem)) {
        Broken(line, "a rejection without a reason, or not UTF-8: [" + problem + "]");
    }
}

// The readers take a kind besides the source: these bind it for ReadEveryRecord.
template <companies::CertificateKind kKind>
struct Reports : companies::ReportReader {
    explicit Reports(std::unique_ptr<sdk::ByteSource> source) : ReportReader(std::move(source), kKind) {}
};
template <companies::CertificateKind kKind>
struct SeriesRows : companies::SeriesReader {
    explicit SeriesRows(std::unique_ptr<sdk::ByteSource> source) : SeriesReader(std::move(source), kKind) {}
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using companies::CertificateKind;
    auto report = [](const auto&, const companies::CertificateReport& r) { CheckReport(r); };
    auto report_rejected = [](const companies::CertificateReport& r, const std::string& p) {
        CheckRejection(r.line, p);
    };
    auto series = [](const auto&, const companies::CertificateSeries& s) { CheckSeries(s); };
    auto series_rejected = [](const companies::CertificateSeries& s, const std::string& p) {
        CheckRejection(s.line, p);
    };
    switch (size % 4) {
        case 0:
            fuzz::ReadEveryRecord<Reports<CertificateKind::kCri>, companies::CertificateReport>(
                kTarget, "inf_mensal_cri_geral_2025.csv", data, size, report, report_rejected);
            break;
        case 1:
            fuzz::ReadEveryRecord<Reports<CertificateKind::kCra>, companies::CertificateReport>(
                kTarget, "inf_mensal_cra_geral_2025.csv", data, size, report, report_rejected);
            break;
        case 2:
            fuzz::ReadEveryRecord<SeriesRows<CertificateKind::kCri>, companies::CertificateSeries>(
                kTarget, "inf_mensal_cri_classe_2025.csv", data, size, series, series_rejected);
            break;
        default:
            fuzz::ReadEveryRecord<SeriesRows<CertificateKind::kCra>, companies::CertificateSeries>(
                kTarget, "inf_mensal_cra_classe_2025.csv", data, size, series, series_rejected);
            break;
    }
    return 0;
}
