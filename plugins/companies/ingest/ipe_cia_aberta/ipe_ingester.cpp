// One year of the IPE index at a time: its rows staged in bulk (sdk::BulkLoader), one row kept per
// (protocol, version) (the later line), then compared with the stored year and applied in a few
// set-based statements, on both backends.
#include "ingest/ipe_cia_aberta/ipe_ingester.hpp"

#include "domain/documents/document_rules.hpp"
#include "domain/documents/ipe_reader.hpp"
#include "domain/text_folding.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/calendar.hpp>
#include <lastro/sdk/ingest/inputs.hpp>
#include <lastro/sdk/ingest/progress.hpp>
#include <lastro/sdk/ingest/rejections.hpp>
#include <lastro/sdk/problem.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace lastro::companies {
namespace {

constexpr std::size_t kNoticesKept = 3;  // a year's repeated deliveries named in the summary

constexpr const char* kColumns =
    "protocol, version, kind, year, cvm_code, cnpj, cnpj_published, cnpj_kind, company_name, reference_date,"
    " delivered_at, category, category_folded, type, species, subject, presentation, link, fingerprint";

sdk::DatasetLayout Layout() {
    sdk::DatasetLayout layout;
    layout.dataset = std::string(kIpeDataset);
    layout.tables.push_back({"ipe_cia_aberta", sdk::NamePattern("ipe_cia_aberta_{YYYY}.csv")});
    layout.archive = sdk::NamePattern("ipe_cia_aberta_{YYYY}.zip");
    layout.expected = "ipe_cia_aberta_YYYY.zip or ipe_cia_aberta_YYYY.csv, as CVM publishes them";
    return layout;
}

sdk::SqlValue Optional(const std::optional<std::string>& value) {
    return value ? sdk::SqlValue(*value) : std::nullopt;
}

std::size_t Count(sdk::SqlSession& sql, const std::string& query) {
    const sdk::SqlRows rows = sql.Query(query);
    return rows.empty() || !rows[0][0] ? 0 : std::stoull(*rows[0][0]);
}

// Stages one year's file into companies_document_stage; notes reported deliveries whose CNPJ
// cell is not a CNPJ.
void Stage(const sdk::IngestContext& context, const sdk::IngestInputs& inputs, const sdk::TableFile& table,
           sdk::RowCounter& counter, sdk::RejectionLog& log, std::size_t& not_cnpj) {
    sdk::SqlSession sql(context.db);
    sql.Execute("DROP TABLE IF EXISTS companies_document_stage");
    sql.Execute(
        "CREATE TEMP TABLE companies_document_stage (protocol TEXT NOT NULL, version BIGINT NOT NULL,"
        " kind TEXT NOT NULL, year INTEGER NOT NULL, cvm_code BIGINT NOT NULL, cnpj TEXT, cnpj_published "
        "TEXT,"
        " cnpj_kind TEXT NOT NULL, company_name TEXT, reference_date TEXT, delivered_at TEXT, category TEXT,"
        " category_folded TEXT, type TEXT, species TEXT, subject TEXT, presentation TEXT, link TEXT, "
        "fingerprint TEXT NOT NULL,"
        " line BIGINT NOT NULL)");
    std::vector<std::string> columns;
    for (const char* column :
         {"protocol",        "version",   "kind",         "year",           "cvm_code",     "cnpj",
          "cnpj_published",  "cnpj_kind", "company_name", "reference_date", "delivered_at", "category",
          "category_folded", "type",      "species",      "subject",        "presentation", "link",
          "fingerprint",     "line"}) {
        columns.emplace_back(column);
    }
    sdk::BulkLoader load(context.db, "companies_document_stage", columns);
    IpeReader reader(inputs.Open(table.file));
    const std::string year = std::to_string(table.period->year);
    DocumentRecord record;
    std::string problem;
    for (ReadOutcome outcome; (outcome = reader.Next(record, problem)) != ReadOutcome::kEnd;) {
        counter.Row();
        if (outcome == ReadOutcome::kRejected) {
            log.Reject(table.file.display, record.line, problem);
            continue;
        }
        if (record.cnpj.kind != sdk::DocumentKind::kCnpj) {
            ++not_cnpj;
        }
        const std::string version = std::to_string(record.version);
        const std::string code = std::to_string(record.cvm_code);
        const std::string fingerprint = std::to_string(DocumentFingerprint(record));
        const std::string line = std::to_string(record.line);
        const std::optional<std::string> category_folded = FoldedFilter(record.category);
        load.Add({record.protocol,
                  version,
                  kIpeKind,
                  year,
                  code,
                  record.cnpj.cnpj ? sdk::SqlValue(*record.cnpj.cnpj) : std::nullopt,
                  record.cnpj.published.empty() ? std::nullopt : sdk::SqlValue(record.cnpj.published),
                  sdk::DocumentKindName(record.cnpj.kind),
                  Optional(record.company_name),
                  Optional(record.reference_date),
                  Optional(record.delivered_at),
                  Optional(record.category),
                  Optional(category_folded),
                  Optional(record.type),
                  Optional(record.species),
                  Optional(record.subject),
                  Optional(record.presentation),
                  Optional(record.link),
                  fingerprint,
                  line});
    }
    load.Finish();
    sql.Execute(
        "CREATE INDEX companies_document_stage_key ON companies_document_stage (protocol, version, line)");
}

// One delivery listed twice in a year: the later line is kept (CVM appends re-sent rows).
std::size_t KeepLaterLines(sdk::SqlSession& sql, const std::string& source, sdk::RejectionLog& log) {
    const std::string repeated =
        " FROM companies_document_stage s WHERE EXISTS (SELECT 1 FROM companies_document_stage later"
        " WHERE later.protocol = s.protocol AND later.version = s.version AND later.line > s.line)";
    for (const auto& row : sql.Query("SELECT s.line, s.protocol, s.version" + repeated +
                                     " ORDER BY s.line LIMIT " + std::to_string(kNoticesKept))) {
        log.Notice(source + " line " + *row[0] + ": delivery " + *row[1] + " version " + *row[2] +
                   " is listed again later in the file, whose line is kept");
    }
    const std::size_t dropped = Count(sql, "SELECT count(*)" + repeated);
    if (dropped > 0) {
        sql.Execute(
            "DELETE FROM companies_document_stage WHERE EXISTS (SELECT 1 FROM companies_document_stage later"
            " WHERE later.protocol = companies_document_stage.protocol"
            " AND later.version = companies_document_stage.version AND later.line > "
            "companies_document_stage.line)");
    }
    return dropped;
}

// The stored year replaced by the staged one; the counts go to `summary`.
void ApplyYear(sdk::SqlSession& sql, int year, const std::string& seen_at, sdk::IngestSummary& summary) {
    const std::string kind = std::string(kIpeKind);
    const std::string stored = "SELECT 1 FROM companies_document o WHERE o.kind = '" + kind +
                               "' AND o.protocol = n.protocol AND o.version = n.version";
    const std::size_t staged = Count(sql, "SELECT count(*) FROM companies_document_stage");
    const std::size_t inserted =
        Count(sql, "SELECT count(*) FROM companies_document_stage n WHERE NOT EXISTS (" + stored + ")");
    const std::size_t unchanged =
        Count(sql, "SELECT count(*) FROM companies_document_stage n WHERE EXISTS (" + stored +
                       " AND o.fingerprint = n.fingerprint)");
    const std::string gone = " FROM companies_document WHERE kind = '" + kind +
                             "' AND year = " + std::to_string(year) +
                             " AND NOT EXISTS (SELECT 1 FROM companies_document_stage n"
                             " WHERE n.protocol = companies_document.protocol"
                             " AND n.version = companies_document.version)";
    const std::size_t removed = Count(sql, "SELECT count(*)" + gone);
    summary.inserted += inserted;
    summary.unchanged += unchanged;
    summary.updated += staged - inserted - unchanged;
    summary.removed += removed;
    if (removed > 0) {
        sql.Execute("DELETE" + gone);
    }
    if (staged > unchanged) {
        sql.Execute(
            "INSERT INTO companies_document (" + std::string(kColumns) + ", first_seen_at) SELECT " +
                kColumns +
                ", $1 FROM companies_document_stage WHERE true"
                " ON CONFLICT (kind, protocol, version) DO UPDATE SET year = excluded.year,"
                " cvm_code = excluded.cvm_code, cnpj = excluded.cnpj, cnpj_published = "
                "excluded.cnpj_published,"
                " cnpj_kind = excluded.cnpj_kind, company_name = excluded.company_name,"
                " reference_date = excluded.reference_date, delivered_at = excluded.delivered_at,"
                " category = excluded.category, category_folded = excluded.category_folded, type = "
                "excluded.type, species = excluded.species,"
                " subject = excluded.subject, presentation = excluded.presentation, link = excluded.link,"
                " fingerprint = excluded.fingerprint"
                " WHERE companies_document.fingerprint <> excluded.fingerprint",
            {std::string_view(seen_at)});
    }
    sql.Execute("DROP TABLE companies_document_stage");
}

}  // namespace

sdk::IngestSummary IpeIngester::Run(const sdk::IngestContext& context) {
    const sdk::IngestInputs inputs(context.inputs);
    const sdk::DatasetFiles files(inputs, Layout());
    files.RequireComplete();
    files.RefuseRepeats();
    std::vector<const sdk::TableFile*> years;
    for (const sdk::TableFile& table : files.Tables()) {
        years.push_back(&table);
    }
    std::sort(years.begin(), years.end(),
              [](const sdk::TableFile* a, const sdk::TableFile* b) { return *a->period < *b->period; });

    sdk::IngestSummary summary;
    sdk::RowCounter counter(context.progress, summary);
    sdk::RejectionLog log(summary);
    sdk::SqlSession sql(context.db);
    const std::string seen_at = sdk::Rfc3339Utc(context.now);
    std::vector<std::string> periods;
    for (const sdk::TableFile* table : years) {
        counter.Stage(table->file.display);
        std::size_t not_cnpj = 0;
        Stage(context, inputs, *table, counter, log, not_cnpj);
        summary.rejected += KeepLaterLines(sql, table->file.display, log);
        if (not_cnpj > 0) {
            log.Notice(
                table->file.display + ": " + std::to_string(not_cnpj) +
                " deliveries whose CNPJ_Companhia is not a valid CNPJ (a placeholder of zeros, a CPF...):"
                " kept with cnpj null and cnpj_kind saying what the cell holds, never matched to a company"
                " by it");
        }
        ApplyYear(sql, table->period->year, seen_at, summary);
        periods.push_back(table->period->ToString());
    }

    summary.release_label = "ipe-cia-aberta-" + periods.front() +
                            (periods.size() > 1 ? ".." + periods.back() : std::string()) + "-" +
                            seen_at.substr(0, 10);
    const sdk::SqlRows last =
        sql.Query("SELECT MAX(delivered_at) FROM companies_document WHERE kind = 'ipe'");
    if (!last.empty() && last[0][0]) {
        summary.as_of = *last[0][0];
    }
    summary.periods = periods;
    return summary;
}

}  // namespace lastro::companies
