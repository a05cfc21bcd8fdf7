#include "domain/issuances/issuance_rules.hpp"

#include <lastro/sdk/ingest/snapshot.hpp>
#include <lastro/sdk/ingest/values.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/text.hpp>

namespace lastro::companies {

namespace {

std::string Folded(const std::optional<std::string>& text) {
    return text ? sdk::FoldForSearch(sdk::TrimBlanks(*text)) : std::string();
}

void Decimal(sdk::JsonText& json, std::string_view key, const std::optional<std::string>& decimal) {
    json.Key(key);
    if (decimal) {
        json.Raw(DecimalJson(*decimal));
    } else {
        json.Null();
    }
}

}  // namespace

std::string_view KindName(CertificateKind kind) {
    return kind == CertificateKind::kCri ? "CRI" : "CRA";
}

std::string_view ReportDataset(CertificateKind kind) {
    return kind == CertificateKind::kCri ? kInfMensalCriDataset : kInfMensalCraDataset;
}

std::string_view RegimeName(OfferingRegime regime) {
    return regime == OfferingRegime::kLegacy ? "legacy" : "rcvm160";
}

std::optional<CertificateKind> KindOfAsset(std::string_view published) {
    const std::string folded(sdk::TrimBlanks(sdk::FoldForSearch(sdk::TrimBlanks(published))));
    if (folded == "cri" ||
        (folded.find("recebiveis imobiliarios") != std::string::npos && folded.starts_with("certificado"))) {
        return CertificateKind::kCri;
    }
    if (folded == "cra" || (folded.find("recebiveis do agronegocio") != std::string::npos &&
                            folded.starts_with("certificado"))) {
        return CertificateKind::kCra;
    }
    return std::nullopt;
}

std::optional<std::string> EmissionKey(const std::optional<std::string>& published) {
    if (!published) {
        return std::nullopt;
    }
    std::string digits;
    bool ended = false;
    for (char c : *published) {
        if (c >= '0' && c <= '9') {
            if (ended) {
                return std::nullopt;  // a second run of digits
            }
            digits.push_back(c);
        } else if (!digits.empty()) {
            ended = true;
        }
    }
    if (digits.empty()) {
        return std::nullopt;
    }
    const std::size_t first = digits.find_first_not_of('0');
    return first == std::string::npos ? std::string("0") : digits.substr(first);
}

std::string IssuerKey(const sdk::DocumentCell& issuer) {
    return issuer.cnpj ? *issuer.cnpj : issuer.published;
}

std::string MonthOf(const std::string& reference_date) {
    return reference_date.substr(0, 7);
}

bool ReportWins(const CertificateReport& candidate, const CertificateReport& kept) {
    if (candidate.reference_date != kept.reference_date) {
        return candidate.reference_date > kept.reference_date;
    }
    if (candidate.version != kept.version) {
        return candidate.version > kept.version;
    }
    return candidate.line > kept.line;
}

bool SeriesOfReport(const CertificateSeries& series, const CertificateReport& report) {
    return series.reference_date == report.reference_date && series.version == report.version;
}

std::string CertificateSearchText(const CertificateReport& report) {
    return Folded(report.emission_name) + "\n" + Folded(report.code) + "\n" + Folded(report.issuer_name);
}

std::string DecimalJson(std::string_view decimal) {
    std::string out;
    if (!decimal.empty() && decimal.front() == '-') {
        out.push_back('-');
        decimal.remove_prefix(1);
    }
    std::size_t zeros = 0;
    while (zeros + 1 < decimal.size() && decimal[zeros] == '0' && decimal[zeros + 1] != '.') {
        ++zeros;
    }
    out.append(decimal.substr(zeros));
    return out;
}

std::string SeriesJson(const std::vector<CertificateSeries>& series) {
    sdk::JsonText json;
    json.BeginArray();
    for (const CertificateSeries& s : series) {
        json.BeginObject();
        json.Key("class").Value(s.class_name);
        json.Key("number").Value(s.number);
        json.Key("offer_type").Value(s.offer_type);
        json.Key("cetip_code").Value(s.cetip_code);
        json.Key("isin").Value(s.isin);
        json.Key("maturity").Value(s.maturity);
        json.Key("rate").Value(s.rate);
        json.Key("indexers").Value(s.indexers);
        json.Key("situation").Value(s.situation);
        Decimal(json, "paid_in", s.paid_in);
        Decimal(json, "quantity", s.quantity);
        Decimal(json, "unit_value", s.unit_value);
        json.EndObject();
    }
    json.EndArray();
    return json.Take();
}

std::string OfferingJson(const OfferingRecord& o) {
    sdk::JsonText json;
    json.BeginObject();
    json.Key("regime").Value(RegimeName(o.regime));
    json.Key("source").Value(o.regime == OfferingRegime::kLegacy ? "oferta_distribuicao.csv"
                                                                 : "oferta_resolucao_160.csv");
    json.Key("process_number").Value(o.process_number);
    json.Key("registration").Value(o.registration);
    json.Key("asset").Value(o.asset);
    json.Key("issuer_cnpj").Value(o.issuer.cnpj);
    json.Key("issuer_cnpj_published")
        .Value(o.issuer.published.empty() ? std::nullopt : std::optional(o.issuer.published));
    json.Key("issuer_cnpj_kind").Value(sdk::DocumentKindName(o.issuer.kind));
    json.Key("issuer_name").Value(o.issuer_name);
    json.Key("leader_name").Value(o.leader_name);
    json.Key("emission").Value(o.emission);
    json.Key("series").Value(o.series);
    json.Key("offer_type").Value(o.offer_type);
    json.Key("status").Value(o.status);
    json.Key("requested_at").Value(o.requested_at);
    json.Key("registered_at").Value(o.registered_at);
    json.Key("closed_at").Value(o.closed_at);
    json.Key("approved_at").Value(o.approved_at);
    json.Key("issued_at").Value(o.issued_at);
    json.Key("maturity").Value(o.maturity);
    Decimal(json, "quantity", o.quantity);
    Decimal(json, "value_total", o.value_total);
    json.Key("lastro").Value(o.lastro);
    json.Key("fiduciary_regime").Value(o.fiduciary_regime);
    json.EndObject();
    return json.Take();
}

std::uint64_t ReportFingerprint(const CertificateReport& r, const std::string& series_json,
                                std::int64_t versions_published) {
    sdk::Fingerprint fingerprint;
    fingerprint << r.issuer.published << r.code << r.reference_date << r.version << r.delivered_at
                << r.emission_number << r.emission_name << r.series_count << r.issued_at << r.issuer_name
                << r.fiduciary_agent << r.lastro_type << r.lastro_detail << r.segment << r.rating_agency
                << r.net_worth << series_json << versions_published;
    return fingerprint.Value();
}

std::uint64_t OfferingFingerprint(const OfferingRecord& o) {
    // The item holds every stored field.
    sdk::Fingerprint fingerprint;
    fingerprint << OfferingJson(o);
    return fingerprint.Value();
}

}  // namespace lastro::companies
