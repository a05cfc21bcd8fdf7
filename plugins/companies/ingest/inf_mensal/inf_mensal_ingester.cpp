// One year of a type's reports at a time: its general and series members read, one report kept per
// certificate and month (the later Data_Referencia, then the higher Versao: ReportWins), its series
// attached, the rows staged in bulk (sdk::BulkLoader) and applied to the stored year in a few
// set-based statements, on both backends; then each certificate's latest month and search text,
// and the months covered.
#include "ingest/inf_mensal/inf_mensal_ingester.hpp"

#include "domain/issuances/inf_mensal_reader.hpp"
#include "domain/issuances/issuance_rules.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

// Rows of one member: CVM's 2025 CRI file has tens of thousands; a hundred times that is not it.
constexpr std::size_t kMaxRows = 3'000'000;
constexpr std::size_t kNoticesKept = 3;

std::string Prefix(CertificateKind kind) {
    return kind == CertificateKind::kCri ? "inf_mensal_cri" : "inf_mensal_cra";
}

sdk::DatasetLayout Layout(CertificateKind kind) {
    const std::string prefix = Prefix(kind);
    sdk::DatasetLayout layout;
    layout.dataset = std::string(ReportDataset(kind));
    layout.tables.push_back({"geral", sdk::NamePattern(prefix + "_geral_{YYYY}.csv")});
    layout.tables.push_back({"classe", sdk::NamePattern(prefix + "_classe_{YYYY}.csv")});
    layout.archive = sdk::NamePattern(prefix + "_{YYYY}.zip");
    layout.expected = prefix + "_YYYY.zip as CVM publishes it (or its members " + prefix +
                      "_geral_YYYY.csv and " + prefix + "_classe_YYYY.csv)";
    return layout;
}

sdk::SqlValue Optional(const std::optional<std::string>& value) {
    return value ? sdk::SqlValue(*value) : std::nullopt;
}

std::size_t Count(sdk::SqlSession& sql, const std::string& query,
                  const std::vector<sdk::SqlValue>& values = {}) {
    const sdk::SqlRows rows = sql.Query(query, values);
    return rows.empty() || !rows[0][0] ? 0 : std::stoull(*rows[0][0]);
}

// A report kept for its certificate and month, with how many rows the file had for them.
struct Kept {
    CertificateReport report;
    std::int64_t rows = 0;
    std::vector<CertificateSeries> series;
};

std::string KeyOf(const sdk::DocumentCell& issuer, const std::string& code, const std::string& month) {
    return IssuerKey(issuer) + '\x1f' + code + '\x1f' + month;
}

class YearReader {
public:
    YearReader(CertificateKind kind, int year, sdk::RowCounter& counter, sdk::RejectionLog& log)
        : kind_(kind), year_(year), counter_(counter), log_(log) {}

    void ReadReports(std::unique_ptr<sdk::ByteSource> source) {
        ReportReader reader(std::move(source), kind_);
        const std::string name = reader.SourceName();
        CertificateReport report;
        std::string problem;
        std::size_t rows = 0;
        std::size_t superseded = 0;
        for (ReadOutcome outcome; (outcome = reader.Next(report, problem)) != ReadOutcome::kEnd;) {
            counter_.Row();
            if (++rows > kMaxRows) {
                throw sdk::IngestError(name, report.line, "more than " + std::to_string(kMaxRows) + " rows");
            }
            if (outcome == ReadOutcome::kRow && !OfYear(report.reference_date)) {
                outcome = ReadOutcome::kRejected;
                problem = "Data_Referencia " + report.reference_date + " is not of the file's year " +
                          std::to_string(year_);
            }
            if (outcome == ReadOutcome::kRejected) {
                log_.Reject(name, report.line, problem);
                continue;
            }
            Kept& kept = kept_[KeyOf(report.issuer, report.code, MonthOf(report.reference_date))];
            ++kept.rows;
            if (kept.rows == 1) {
                kept.report = std::move(report);
                continue;
            }
            ++superseded;
            const bool wins = ReportWins(report, kept.report);
            const CertificateReport& loser = wins ? kept.report : report;
            if (superseded <= kNoticesKept) {
                log_.Notice(name + " line " + std::to_string(loser.line) + ": certificate " + loser.code +
                            " of " + MonthOf(loser.reference_date) + " (Versao " +
                            std::to_string(loser.version) + ") is superseded by line " +
                            std::to_string((wins ? report : kept.report).line) +
                            " (a later Data_Referencia or a higher Versao)");
            }
            if (wins) {
                kept.report = std::move(report);
            }
        }
        superseded_ += superseded;
    }

    void ReadSeries(std::unique_ptr<sdk::ByteSource> source) {
        SeriesReader reader(std::move(source), kind_);
        const std::string name = reader.SourceName();
        CertificateSeries series;
        std::string problem;
        std::size_t rows = 0;
        std::size_t orphans = 0;
        for (ReadOutcome outcome; (outcome = reader.Next(series, problem)) != ReadOutcome::kEnd;) {
            counter_.Row();
            if (++rows > kMaxRows) {
                throw sdk::IngestError(name, series.line, "more than " + std::to_string(kMaxRows) + " rows");
            }
            if (outcome == ReadOutcome::kRejected) {
                log_.Reject(name, series.line, problem);
                continue;
            }
            const auto kept = kept_.find(KeyOf(series.issuer, series.code, MonthOf(series.reference_date)));
            if (kept == kept_.end()) {
                ++orphans;  // no general row for it: nothing to attach it to
                continue;
            }
            if (SeriesOfReport(series, kept->second.report)) {
                kept->second.series.push_back(std::move(series));
            }  // else: a series of a superseded version
        }
        if (orphans > 0) {
            log_.Notice(
                name + ": " + std::to_string(orphans) +
                " series rows whose certificate and month have no row in the general member: left out");
        }
    }

    const std::map<std::string, Kept>& KeptReports() const { return kept_; }
    std::size_t Superseded() const { return superseded_; }

private:
    bool OfYear(const std::string& date) const { return date.substr(0, 4) == std::to_string(year_); }

    CertificateKind kind_;
    int year_;
    sdk::RowCounter& counter_;
    sdk::RejectionLog& log_;
    std::map<std::string, Kept> kept_;
    std::size_t superseded_ = 0;
};

// The identities of the kind, by issuer key and code; new ones are added under the next page keys.
class Identities {
public:
    Identities(sdk::SqlSession& sql, CertificateKind kind) : sql_(sql), kind_(KindName(kind)) {
        for (const auto& row :
             sql_.Query("SELECT id, issuer_key, code FROM companies_certificate WHERE kind = $1", {kind_})) {
            ids_[*row[1] + '\x1f' + *row[2]] = std::stoll(*row[0]);
        }
        next_ =
            static_cast<std::int64_t>(Count(sql_, "SELECT COALESCE(MAX(id), 0) FROM companies_certificate")) +
            1;
    }

    std::int64_t IdOf(const CertificateReport& r) {
        const std::string key = IssuerKey(r.issuer) + '\x1f' + r.code;
        if (const auto found = ids_.find(key); found != ids_.end()) {
            return found->second;
        }
        const std::int64_t id = next_++;
        const std::string id_text = std::to_string(id);
        const std::string issuer_key = IssuerKey(r.issuer);
        sql_.Execute(
            "INSERT INTO companies_certificate (id, kind, issuer_key, issuer_cnpj, issuer_cnpj_published,"
            " issuer_cnpj_kind, code, latest_month, search_text) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, "
            "'')",
            {id_text, kind_, issuer_key, r.issuer.cnpj ? sdk::SqlValue(*r.issuer.cnpj) : std::nullopt,
             r.issuer.published, sdk::DocumentKindName(r.issuer.kind), r.code});
        ids_[key] = id;
        return id;
    }

private:
    sdk::SqlSession& sql_;
    std::string kind_;
    std::map<std::string, std::int64_t> ids_;
    std::int64_t next_ = 1;
};

constexpr const char* kColumns =
    "certificate_id, month, kind, year, reference_date, version, versions_published, delivered_at,"
    " emission_number, emission_key, emission_name, series_count, issued_at, issuer_name, fiduciary_agent,"
    " lastro_type, lastro_detail, segment, rating_agency, net_worth, series_json, search_text, fingerprint";

void Stage(const sdk::IngestContext& context, const YearReader& year_reader, CertificateKind kind, int year,
           Identities& identities) {
    sdk::SqlSession sql(context.db);
    sql.Execute("DROP TABLE IF EXISTS companies_certificate_stage");
    sql.Execute(
        "CREATE TEMP TABLE companies_certificate_stage (certificate_id BIGINT NOT NULL, month TEXT NOT NULL,"
        " kind TEXT NOT NULL, year INTEGER NOT NULL, reference_date TEXT NOT NULL, version BIGINT NOT NULL,"
        " versions_published BIGINT NOT NULL, delivered_at TEXT, emission_number TEXT, emission_key TEXT,"
        " emission_name TEXT, series_count BIGINT, issued_at TEXT, issuer_name TEXT, fiduciary_agent TEXT,"
        " lastro_type TEXT, lastro_detail TEXT, segment TEXT, rating_agency TEXT, net_worth TEXT,"
        " series_json TEXT NOT NULL, search_text TEXT NOT NULL, fingerprint TEXT NOT NULL,"
        " PRIMARY KEY (certificate_id, month))");
    std::vector<std::string> columns;
    for (std::string_view column : {"certificate_id",
                                    "month",
                                    "kind",
                                    "year",
                                    "reference_date",
                                    "version",
                                    "versions_published",
                                    "delivered_at",
                                    "emission_number",
                                    "emission_key",
                                    "emission_name",
                                    "series_count",
                                    "issued_at",
                                    "issuer_name",
                                    "fiduciary_agent",
                                    "lastro_type",
                                    "lastro_detail",
                                    "segment",
                                    "rating_agency",
                                    "net_worth",
                                    "series_json",
                                    "search_text",
                                    "fingerprint"}) {
        columns.emplace_back(column);
    }
    // Ids first: the loader's statement is the only one running while it loads.
    std::vector<std::int64_t> ids;
    for (const auto& [key, kept] : year_reader.KeptReports()) {
        ids.push_back(identities.IdOf(kept.report));
    }
    sdk::BulkLoader load(context.db, "companies_certificate_stage", columns);
    const std::string kind_name(KindName(kind));
    const std::string year_text = std::to_string(year);
    std::size_t i = 0;
    for (const auto& [key, kept] : year_reader.KeptReports()) {
        const CertificateReport& r = kept.report;
        const std::string id = std::to_string(ids[i++]);
        const std::string month = MonthOf(r.reference_date);
        const std::string version = std::to_string(r.version);
        const std::string rows = std::to_string(kept.rows);
        const std::optional<std::string> emission_key = EmissionKey(r.emission_number);
        const std::optional<std::string> series_count =
            r.series_count ? std::optional(std::to_string(*r.series_count)) : std::nullopt;
        const std::string series_json = SeriesJson(kept.series);
        const std::string search_text = CertificateSearchText(r);
        const std::string fingerprint = std::to_string(ReportFingerprint(r, series_json, kept.rows));
        load.Add({id,
                  month,
                  kind_name,
                  year_text,
                  r.reference_date,
                  version,
                  rows,
                  Optional(r.delivered_at),
                  Optional(r.emission_number),
                  Optional(emission_key),
                  Optional(r.emission_name),
                  Optional(series_count),
                  Optional(r.issued_at),
                  Optional(r.issuer_name),
                  Optional(r.fiduciary_agent),
                  Optional(r.lastro_type),
                  Optional(r.lastro_detail),
                  Optional(r.segment),
                  Optional(r.rating_agency),
                  Optional(r.net_worth),
                  series_json,
                  search_text,
                  fingerprint});
    }
    load.Finish();
}

// The stored year of the kind replaced by the staged one; the counts go to `summary`.
void ApplyYear(sdk::SqlSession& sql, CertificateKind kind, int year, const std::string& seen_at,
               sdk::IngestSummary& summary) {
    const std::string kind_name(KindName(kind));
    const std::string year_text = std::to_string(year);
    const std::string stored =
        "SELECT 1 FROM companies_certificate_report o WHERE o.certificate_id = n.certificate_id AND o.month "
        "= n.month";
    const std::size_t staged = Count(sql, "SELECT count(*) FROM companies_certificate_stage");
    const std::size_t inserted =
        Count(sql, "SELECT count(*) FROM companies_certificate_stage n WHERE NOT EXISTS (" + stored + ")");
    const std::size_t unchanged =
        Count(sql, "SELECT count(*) FROM companies_certificate_stage n WHERE EXISTS (" + stored +
                       " AND o.fingerprint = n.fingerprint)");
    const std::string gone =
        " FROM companies_certificate_report WHERE kind = $1 AND year = CAST($2 AS INTEGER)"
        " AND NOT EXISTS (SELECT 1 FROM companies_certificate_stage n"
        " WHERE n.certificate_id = companies_certificate_report.certificate_id"
        " AND n.month = companies_certificate_report.month)";
    const std::size_t removed = Count(sql, "SELECT count(*)" + gone, {kind_name, year_text});
    summary.inserted += inserted;
    summary.unchanged += unchanged;
    summary.updated += staged - inserted - unchanged;
    summary.removed += removed;
    if (removed > 0) {
        sql.Execute("DELETE" + gone, {kind_name, year_text});
    }
    if (staged > unchanged) {
        sql.Execute("INSERT INTO companies_certificate_report (" + std::string(kColumns) +
                        ", first_seen_at) SELECT " + kColumns +
                        ", $1 FROM companies_certificate_stage WHERE true"
                        " ON CONFLICT (certificate_id, month) DO UPDATE SET kind = excluded.kind,"
                        " year = excluded.year, reference_date = excluded.reference_date,"
                        " version = excluded.version, versions_published = excluded.versions_published,"
                        " delivered_at = excluded.delivered_at, emission_number = excluded.emission_number,"
                        " emission_key = excluded.emission_key, emission_name = excluded.emission_name,"
                        " series_count = excluded.series_count, issued_at = excluded.issued_at,"
                        " issuer_name = excluded.issuer_name, fiduciary_agent = excluded.fiduciary_agent,"
                        " lastro_type = excluded.lastro_type, lastro_detail = excluded.lastro_detail,"
                        " segment = excluded.segment, rating_agency = excluded.rating_agency,"
                        " net_worth = excluded.net_worth, series_json = excluded.series_json,"
                        " search_text = excluded.search_text, fingerprint = excluded.fingerprint"
                        " WHERE companies_certificate_report.fingerprint <> excluded.fingerprint",
                    {std::string_view(seen_at)});
    }
    sql.Execute("DROP TABLE companies_certificate_stage");

    // The months of the year covered, from the rows now stored.
    const std::string source(ReportDataset(kind));
    sql.Execute("DELETE FROM companies_issuance_coverage WHERE source = $1 AND month LIKE $2",
                {source, year_text + "-%"});
    sql.Execute(
        "INSERT INTO companies_issuance_coverage (source, month, row_count) SELECT $1, month, count(*)"
        " FROM companies_certificate_report WHERE kind = $2 AND year = CAST($3 AS INTEGER) GROUP BY month",
        {source, kind_name, year_text});
}

// Each identity of the kind: its latest month and that report's search text; identities left
// without a report are removed.
void RefreshIdentities(sdk::SqlSession& sql, CertificateKind kind) {
    const std::string kind_name(KindName(kind));
    sql.Execute(
        "UPDATE companies_certificate SET latest_month = (SELECT MAX(r.month) FROM "
        "companies_certificate_report r"
        " WHERE r.certificate_id = companies_certificate.id) WHERE kind = $1",
        {kind_name});
    sql.Execute("DELETE FROM companies_certificate WHERE kind = $1 AND latest_month IS NULL", {kind_name});
    const std::string latest =
        "(SELECT r.search_text FROM companies_certificate_report r WHERE r.certificate_id = "
        "companies_certificate.id"
        " AND r.month = companies_certificate.latest_month)";
    sql.Execute("UPDATE companies_certificate SET search_text = " + latest +
                    " WHERE kind = $1 AND search_text <> " + latest,
                {kind_name});
}

}  // namespace

sdk::IngestSummary InfMensalIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout(kind_));
    files.RequireComplete();
    files.RefuseRepeats();
    std::vector<sdk::Period> periods = files.Periods();
    std::sort(periods.begin(), periods.end());

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    sdk::RejectionLog log(summary);
    sdk::SqlSession sql(context.db);
    const std::string seen_at = sdk::Rfc3339Utc(context.now);
    Identities identities(sql, kind_);
    std::vector<std::string> years;
    for (const sdk::Period& period : periods) {
        YearReader reader(kind_, period.year, counter, log);
        for (const sdk::TableFile* table : files.TablesOf(period)) {
            counter.Stage(table->file.display);
            if (files.Spec(*table).id == "geral") {
                reader.ReadReports(inputs.Open(table->file));
            } else {
                reader.ReadSeries(inputs.Open(table->file));
            }
        }
        if (reader.Superseded() > kNoticesKept) {
            log.Notice(std::to_string(reader.Superseded()) + " reports of " + period.ToString() +
                       " superseded in all by a later Data_Referencia or a higher Versao of the same "
                       "certificate and month");
        }
        Stage(context, reader, kind_, period.year, identities);
        ApplyYear(sql, kind_, period.year, seen_at, summary);
        years.push_back(period.ToString());
    }
    RefreshIdentities(sql, kind_);

    const std::string prefix = kind_ == CertificateKind::kCri ? "inf-mensal-cri-" : "inf-mensal-cra-";
    summary.release_label = prefix + years.front() +
                            (years.size() > 1 ? ".." + years.back() : std::string()) + "-" +
                            seen_at.substr(0, 10);
    const sdk::SqlRows last =
        sql.Query("SELECT MAX(reference_date) FROM companies_certificate_report WHERE kind = $1",
                  {std::string(KindName(kind_))});
    if (!last.empty() && last[0][0]) {
        summary.as_of = *last[0][0];
    }
    summary.periods = years;
    return summary;
}

}  // namespace lastro::companies
