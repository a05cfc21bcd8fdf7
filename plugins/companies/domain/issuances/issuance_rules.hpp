// Rules over CRI/CRA certificates and their offerings, below both the ingesters and the handler
// (docs/api/emissoes.md, docs/datasets/inf_mensal_cri.md, oferta_distribuicao.md).
#pragma once

#include "domain/issuances/issuance_record.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lastro::companies {

inline constexpr std::string_view kInfMensalCriDataset = "cvm.inf_mensal_cri";
inline constexpr std::string_view kInfMensalCraDataset = "cvm.inf_mensal_cra";
inline constexpr std::string_view kOfertaDataset = "cvm.oferta_distribuicao";

// "CRI" or "CRA": the `tipo` of the answer and of the tables.
std::string_view KindName(CertificateKind kind);
// The monthly reports' dataset of a kind.
std::string_view ReportDataset(CertificateKind kind);
// "legacy" or "rcvm160".
std::string_view RegimeName(OfferingRegime regime);

// The kind of an offering's asset as published (legacy Tipo_Ativo, RCVM 160 Valor_Mobiliario),
// compared ignoring case and accents: "Certificados de Recebíveis Imobiliários" (or "CRI") is a
// CRI, "Certificados de Recebíveis do Agronegócio" (or "CRA") a CRA; anything else (shares,
// debentures, FIDC quotas, "Outros títulos de securitização") is none of ours.
std::optional<CertificateKind> KindOfAsset(std::string_view published);

// What an emission number is compared on: the one run of digits of the published text, without
// leading zeros ("1", "001", "1ª" and "1a Emissão" are all "1"); nullopt when the text holds no
// digits, or two runs of them ("1/2", "3 e 4"), which cannot be told apart.
std::optional<std::string> EmissionKey(const std::optional<std::string>& published);

// The issuer part of a certificate's identity: the 14 digits of a valid CNPJ, else the cell as
// published (a CPF, zeros, two ids: kept apart, never turned into a company).
std::string IssuerKey(const sdk::DocumentCell& issuer);

// "YYYY-MM" of a YYYY-MM-DD reference date.
std::string MonthOf(const std::string& reference_date);

// Which of two reports of one certificate and month is served: the later Data_Referencia, then the
// higher Versao, then the later line of the file. True when `candidate` wins over `kept`.
bool ReportWins(const CertificateReport& candidate, const CertificateReport& kept);

// True when `series` belongs to the report kept for its certificate and month (same reference
// date and version).
bool SeriesOfReport(const CertificateSeries& series, const CertificateReport& report);

// The text `q` matches for a certificate: its emission name, its code and the securitizer's name as
// the report gives it, case- and accent-folded, one per line.
std::string CertificateSearchText(const CertificateReport& report);

// A checked plain decimal as JSON number text: leading zeros of the integer part removed
// ("007.50" -> "7.50", "-00.1" -> "-0.1").
std::string DecimalJson(std::string_view decimal);

// The series of a report as the answer writes them (a JSON array, in the file's order).
std::string SeriesJson(const std::vector<CertificateSeries>& series);

// An offering as the answer writes it (a JSON object).
std::string OfferingJson(const OfferingRecord& offering);

// Every stored column reduced to a number (sdk::Fingerprint): a changed row is one whose
// fingerprint changed.
std::uint64_t ReportFingerprint(const CertificateReport& report, const std::string& series_json,
                                std::int64_t versions_published);
std::uint64_t OfferingFingerprint(const OfferingRecord& offering);

}  // namespace lastro::companies
