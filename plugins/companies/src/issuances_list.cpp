// GET /v1/emissoes: CRI/CRA certificates, one row per identity (tipo, issuer CNPJ, code) with its
// report of the asked month (or its latest reported month), its series, its securitizer and its
// matched offerings, by keyset pages over the identity's page key (docs/api/emissoes.md).
#include "domain/issuances/issuance_rules.hpp"
#include "domain/registry/registry_rules.hpp"
#include "src/handlers.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/problem.hpp>
#include <lastro/sdk/serving/dataset_meta.hpp>
#include <lastro/sdk/serving/json_text.hpp>
#include <lastro/sdk/serving/pagination.hpp>
#include <lastro/sdk/serving/trigram_search.hpp>
#include <lastro/sdk/sql_conditions.hpp>

#include <boost/describe/class.hpp>
#include <boost/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace lastro::companies {

// Where a page starts: after the identity of page key `after`.
struct IssuanceAfter {
    std::int64_t after = 0;
    bool Valid() const { return after >= 0; }
};
BOOST_DESCRIBE_STRUCT(IssuanceAfter, (), (after))

namespace {

constexpr const char* kIssuer = "/v1/emissoes";
constexpr std::size_t kDefaultLimit = 50;

// The columns a row is written from, in this order.
enum Column {
    cId,
    cKind,
    cCnpj,
    cCnpjPublished,
    cCnpjKind,
    cCode,
    cLatestMonth,
    cMonth,
    cReference,
    cVersion,
    cVersionsPublished,
    cDelivered,
    cEmissionNumber,
    cEmissionKey,
    cEmissionName,
    cSeriesCount,
    cIssued,
    cIssuerName,
    cAgent,
    cLastroType,
    cLastroDetail,
    cSegment,
    cRating,
    cNetWorth,
    cSeries,
    cFirstSeen
};
constexpr const char* kSelect =
    "SELECT c.id, c.kind, c.issuer_cnpj, c.issuer_cnpj_published, c.issuer_cnpj_kind, c.code, c.latest_month,"
    " r.month, r.reference_date, r.version, r.versions_published, r.delivered_at, r.emission_number,"
    " r.emission_key, r.emission_name, r.series_count, r.issued_at, r.issuer_name, r.fiduciary_agent,"
    " r.lastro_type, r.lastro_detail, r.segment, r.rating_agency, r.net_worth, r.series_json, r.first_seen_at"
    " FROM companies_certificate c JOIN companies_certificate_report r ON r.certificate_id = c.id WHERE true";

// What companies_issuance_coverage says of each source.
struct SourceCoverage {
    std::vector<std::string> months;  // ascending
    std::int64_t rows = 0;
};

std::map<std::string, SourceCoverage> ReadCoverage(sdk::SqlSession& sql) {
    std::map<std::string, SourceCoverage> coverage;
    // By key, the three sources the table can hold: read by its index, not whole.
    for (const auto& row : sql.Query("SELECT source, month, row_count FROM companies_issuance_coverage"
                                     " WHERE source IN ($1, $2, $3) ORDER BY source, month",
                                     {kInfMensalCriDataset, kInfMensalCraDataset, kOfertaDataset})) {
        SourceCoverage& source = coverage[*row[0]];
        if (!row[1]->empty()) {
            source.months.push_back(*row[1]);
        }
        source.rows += std::stoll(*row[2]);
    }
    return coverage;
}

// "2025-01..2026-09 (21 months)", or "no month" for a source not ingested.
std::string MonthsText(const SourceCoverage* source) {
    if (!source || source->months.empty()) {
        return "no month";
    }
    return source->months.front() + ".." + source->months.back() + " (" +
           std::to_string(source->months.size()) + (source->months.size() == 1 ? " month)" : " months)");
}

boost::json::object CoverageMeta(const std::map<std::string, SourceCoverage>& coverage,
                                 const std::vector<CertificateKind>& kinds,
                                 const std::optional<std::string>& month) {
    boost::json::array sources;
    for (CertificateKind kind : kinds) {
        const std::string dataset(ReportDataset(kind));
        const auto found = coverage.find(dataset);
        boost::json::object source{{"dataset", dataset}, {"tipo", KindName(kind)}};
        if (found == coverage.end() || found->second.months.empty()) {
            source["first_month"] = nullptr;
            source["last_month"] = nullptr;
            source["months"] = 0;
            source["reports"] = 0;
        } else {
            const SourceCoverage& c = found->second;
            source["first_month"] = c.months.front();
            source["last_month"] = c.months.back();
            source["months"] = static_cast<std::int64_t>(c.months.size());
            source["reports"] = c.rows;
        }
        if (month) {
            const bool covered =
                found != coverage.end() &&
                std::binary_search(found->second.months.begin(), found->second.months.end(), *month);
            source["covers_month"] = covered;
        }
        sources.push_back(std::move(source));
    }
    boost::json::object offerings{{"dataset", std::string(kOfertaDataset)}};
    for (OfferingRegime regime : {OfferingRegime::kLegacy, OfferingRegime::kRcvm160}) {
        const auto found = coverage.find(std::string(kOfertaDataset) + ":" + std::string(RegimeName(regime)));
        offerings[std::string(RegimeName(regime)) + "_offerings"] =
            found == coverage.end() ? 0 : found->second.rows;
    }
    sources.push_back(std::move(offerings));
    sources.push_back(boost::json::object{{"dataset", std::string(kRegistryDataset)},
                                          {"role", "securitizers' legal names, by CNPJ"}});
    boost::json::object meta{{"month", month ? boost::json::value(*month) : boost::json::value(nullptr)},
                             {"sources", std::move(sources)}};
    return meta;
}

// The registry's company of a CNPJ: an ATIVO one first, then the highest CVM code.
struct Registered {
    std::int64_t cvm_code = 0;
    std::optional<std::string> legal_name;
    std::optional<std::string> situation;
};

}  // namespace

sdk::Result HandleIssuances(const sdk::RequestContext& context) {
    const sdk::Params& params = context.params;
    sdk::Result result;
    result.meta = sdk::DatasetMeta(
        context.host, {kInfMensalCriDataset, kInfMensalCraDataset, kOfertaDataset, kRegistryDataset});
    sdk::SqlSession sql(context.db);

    const std::optional<std::string> tipo = params.String("tipo");
    std::vector<CertificateKind> kinds;
    for (CertificateKind kind : {CertificateKind::kCri, CertificateKind::kCra}) {
        if (!tipo || *tipo == KindName(kind)) {
            kinds.push_back(kind);
        }
    }
    std::optional<std::string> month;
    if (const auto asked = params.MonthValue("month")) {
        month = asked->ToString();
    }

    // An asked month no report of the asked types covers is a 404 naming the months covered;
    // a covered month whose filters match nothing is an empty page.
    const std::map<std::string, SourceCoverage> coverage = ReadCoverage(sql);
    if (month) {
        bool covered = false;
        std::string covers;
        for (CertificateKind kind : kinds) {
            const auto found = coverage.find(std::string(ReportDataset(kind)));
            const SourceCoverage* source = found == coverage.end() ? nullptr : &found->second;
            covered = covered ||
                      (source && std::binary_search(source->months.begin(), source->months.end(), *month));
            covers += std::string(covers.empty() ? "" : "; ") + std::string(KindName(kind)) + " " +
                      MonthsText(source);
        }
        if (!covered) {
            throw sdk::NotFound("no " + std::string(tipo ? *tipo : "CRI or CRA") + " report covers month " +
                                    *month + ": the monthly reports cover " + covers,
                                "month");
        }
    }
    result.meta.extra["coverage"] = CoverageMeta(coverage, kinds, month);

    sdk::SqlConditions where;
    if (month) {
        where.Add("r.month = ?", {*month});
    } else {
        where.Add("r.month = c.latest_month");
    }
    if (tipo) {
        where.Add("c.kind = ?", {*tipo});
    }
    if (const auto cnpj = params.String("cnpj")) {
        where.Add("c.issuer_cnpj = ?", {*cnpj});
    }
    if (const auto needle = FoldedFilter(params.String("q"))) {
        // The certificate's own names, or the registry's names of its securitizer.
        const std::string pattern = sdk::ContainsPattern(*needle);
        const std::optional<std::string> phrase =
            sql.IsPostgres() ? std::nullopt : sdk::TrigramPhrase("search_text", *needle);
        std::string own = "c.search_text LIKE ? ESCAPE '\\'";
        std::string registry = "cc.search_text LIKE ? ESCAPE '\\'";
        std::vector<std::string> values{pattern};
        if (phrase) {
            own +=
                " AND c.id IN (SELECT rowid FROM companies_certificate_search WHERE "
                "companies_certificate_search MATCH ?)";
            values.push_back(*phrase);
        }
        values.push_back(pattern);
        if (phrase) {
            registry +=
                " AND cc.cvm_code IN (SELECT rowid FROM companies_company_search WHERE "
                "companies_company_search MATCH ?)";
            values.push_back(*phrase);
        }
        where.Add("((" + own + ") OR c.issuer_cnpj IN (SELECT cc.cnpj FROM companies_company cc WHERE " +
                      registry + "))",
                  values);
    }
    if (const auto position = sdk::ReadPosition<IssuanceAfter>(context.cursor_position, kIssuer)) {
        where.Add("c.id > ?", {std::to_string(position->after)});
    }

    const std::size_t limit = sdk::PageLimit(params, kDefaultLimit);
    const sdk::SqlRows rows =
        sql.Query(std::string(kSelect) + where.Where() + " ORDER BY c.id LIMIT " + std::to_string(limit + 1),
                  where.Values());
    const std::size_t shown = std::min(rows.size(), limit);

    // The page's securitizers in the registry, and the offerings of their CNPJs.
    std::vector<std::string> cnpjs;
    {
        std::set<std::string> seen;
        for (std::size_t i = 0; i < shown; ++i) {
            if (rows[i][cCnpj] && seen.insert(*rows[i][cCnpj]).second) {
                cnpjs.push_back(*rows[i][cCnpj]);
            }
        }
    }
    std::map<std::string, Registered> registered;
    std::map<std::string, std::vector<std::string>> offerings;  // kind|cnpj|emission_key -> items
    if (!cnpjs.empty()) {
        const std::vector<sdk::SqlValue> values(cnpjs.begin(), cnpjs.end());
        const std::string in = "(" + sdk::SqlPlaceholders(1, cnpjs.size()) + ")";
        for (const auto& row :
             sql.Query("SELECT cnpj, cvm_code, legal_name, situation FROM companies_company"
                       " WHERE cnpj IN " +
                           in +
                           " ORDER BY cnpj, CASE WHEN situation = 'ATIVO' THEN 0 ELSE 1 END,"
                           " cvm_code DESC",
                       values)) {
            if (!registered.count(*row[0])) {
                registered[*row[0]] = Registered{std::stoll(*row[1]), row[2], row[3]};
            }
        }
    }
    // The offerings of exactly the page's emissions (type, issuer CNPJ, emission number), by index.
    std::vector<std::string> emissions;
    {
        std::set<std::string> seen;
        for (std::size_t i = 0; i < shown; ++i) {
            const auto& row = rows[i];
            if (row[cCnpj] && row[cEmissionKey] &&
                seen.insert(*row[cKind] + "|" + *row[cCnpj] + "|" + *row[cEmissionKey]).second) {
                emissions.insert(emissions.end(), {*row[cCnpj], *row[cKind], *row[cEmissionKey]});
            }
        }
    }
    if (!emissions.empty()) {
        std::string tuples;
        for (std::size_t i = 0; i < emissions.size(); i += 3) {
            tuples += (i == 0 ? "(" : ", (") + sdk::SqlPlaceholders(i + 1, 3) + ")";
        }
        const std::vector<sdk::SqlValue> values(emissions.begin(), emissions.end());
        for (const auto& row :
             sql.Query("SELECT kind, issuer_cnpj, emission_key, item FROM companies_offering"
                       " WHERE (issuer_cnpj, kind, emission_key) IN (VALUES " +
                           tuples + ") ORDER BY regime, offering_key",
                       values)) {
            offerings[*row[0] + "|" + *row[1] + "|" + *row[2]].push_back(*row[3]);
        }
    }

    sdk::JsonText json;
    json.BeginArray();
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& row = rows[i];
        const std::string& kind = *row[cKind];
        const auto company = row[cCnpj] ? registered.find(*row[cCnpj]) : registered.end();
        const bool in_registry = company != registered.end();
        const std::vector<std::string>* matched = nullptr;
        if (row[cCnpj] && row[cEmissionKey]) {
            const auto found = offerings.find(kind + "|" + *row[cCnpj] + "|" + *row[cEmissionKey]);
            matched = found == offerings.end() ? nullptr : &found->second;
        }
        json.BeginObject();
        json.Key("tipo").Value(kind);
        json.Key("issuer_cnpj").Value(row[cCnpj]);
        json.Key("issuer_cnpj_published").Value(*row[cCnpjPublished]);
        json.Key("issuer_cnpj_kind").Value(*row[cCnpjKind]);
        json.Key("code").Value(*row[cCode]);
        json.Key("month").Value(*row[cMonth]);
        json.Key("latest_month").Value(*row[cLatestMonth]);
        json.Key("reference_date").Value(*row[cReference]);
        json.Key("version").Value(static_cast<std::int64_t>(std::stoll(*row[cVersion])));
        json.Key("versions_published").Value(static_cast<std::int64_t>(std::stoll(*row[cVersionsPublished])));
        json.Key("delivered_at").Value(row[cDelivered]);
        json.Key("emission_number").Value(row[cEmissionNumber]);
        json.Key("emission_name").Value(row[cEmissionName]);
        json.Key("series_count")
            .Value(row[cSeriesCount] ? std::optional<std::int64_t>(std::stoll(*row[cSeriesCount]))
                                     : std::nullopt);
        json.Key("issued_at").Value(row[cIssued]);
        json.Key("lastro_type").Value(row[cLastroType]);
        json.Key("lastro_detail").Value(row[cLastroDetail]);
        json.Key("segment").Value(row[cSegment]);
        json.Key("fiduciary_agent").Value(row[cAgent]);
        json.Key("rating_agency").Value(row[cRating]);
        json.Key("net_worth");
        if (row[cNetWorth]) {
            json.Raw(DecimalJson(*row[cNetWorth]));
        } else {
            json.Null();
        }
        json.Key("securitizer").BeginObject();
        json.Key("cnpj").Value(row[cCnpj]);
        json.Key("name").Value(in_registry && company->second.legal_name ? company->second.legal_name
                                                                         : row[cIssuerName]);
        json.Key("name_source").Value(in_registry && company->second.legal_name ? "registry" : "report");
        json.Key("report_name").Value(row[cIssuerName]);
        json.Key("cvm_code")
            .Value(in_registry ? std::optional<std::int64_t>(company->second.cvm_code) : std::nullopt);
        json.Key("registry_situation").Value(in_registry ? company->second.situation : std::nullopt);
        json.EndObject();
        json.Key("series").Raw(*row[cSeries]);
        json.Key("offerings").BeginArray();
        if (matched) {
            for (const std::string& item : *matched) {
                json.Raw(item);
            }
        }
        json.EndArray();
        json.Key("sources").BeginArray();
        json.Value(ReportDataset(kind == "CRI" ? CertificateKind::kCri : CertificateKind::kCra));
        if (matched) {
            json.Value(kOfertaDataset);
        }
        if (in_registry) {
            json.Value(kRegistryDataset);
        }
        json.EndArray();
        json.Key("first_seen_at").Value(*row[cFirstSeen]);
        json.EndObject();
    }
    json.EndArray();
    result.data_json = json.Take();
    result.meta.row_count = shown;
    if (rows.size() > limit) {
        result.meta.next_position = sdk::PositionValue(IssuanceAfter{std::stoll(*rows[shown - 1][cId])});
    }
    return result;
}

}  // namespace lastro::companies
