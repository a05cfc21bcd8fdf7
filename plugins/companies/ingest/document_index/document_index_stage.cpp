#include "ingest/document_index/document_index_stage.hpp"

#include "domain/documents/document_rules.hpp"
#include "domain/text_folding.hpp"
#include "ingest/staged_diff.hpp"

#include <vector>

namespace lastro::companies {
namespace {

constexpr std::size_t kNoticesKept = 3;  // a year's repeated deliveries named in the summary

constexpr const char* kColumns =
    "protocol, version, kind, year, cvm_code, cnpj, cnpj_published, cnpj_kind, company_name, reference_date,"
    " delivered_at, category, category_folded, type, species, subject, presentation, link, fingerprint, "
    "delivery";

sdk::SqlValue Optional(const std::optional<std::string>& value) {
    return value ? sdk::SqlValue(*value) : std::nullopt;
}

std::size_t Count(sdk::SqlSession& sql, const std::string& query) {
    const sdk::SqlRows rows = sql.Query(query);
    return rows.empty() || !rows[0][0] ? 0 : std::stoull(*rows[0][0]);
}

}  // namespace

DocumentIndexStage::DocumentIndexStage(odb::database& db, std::string_view kind, int year)
    : db_(db), kind_(kind), year_(year) {
    sdk::SqlSession sql(db_);
    sql.Execute("DROP TABLE IF EXISTS companies_document_stage");
    sql.Execute(
        "CREATE TEMP TABLE companies_document_stage (protocol TEXT NOT NULL, version BIGINT NOT NULL,"
        " kind TEXT NOT NULL, year INTEGER NOT NULL, cvm_code BIGINT NOT NULL, cnpj TEXT, cnpj_published "
        "TEXT,"
        " cnpj_kind TEXT NOT NULL, company_name TEXT, reference_date TEXT, delivered_at TEXT, category TEXT,"
        " category_folded TEXT, type TEXT, species TEXT, subject TEXT, presentation TEXT, link TEXT,"
        " fingerprint TEXT NOT NULL, delivery TEXT NOT NULL, line BIGINT NOT NULL)");
    std::vector<std::string> columns;
    for (const char* column :
         {"protocol",        "version",   "kind",         "year",           "cvm_code",     "cnpj",
          "cnpj_published",  "cnpj_kind", "company_name", "reference_date", "delivered_at", "category",
          "category_folded", "type",      "species",      "subject",        "presentation", "link",
          "fingerprint",     "delivery",  "line"}) {
        columns.emplace_back(column);
    }
    load_ = std::make_unique<sdk::BulkLoader>(db_, "companies_document_stage", columns);
}

DocumentIndexStage::~DocumentIndexStage() = default;

void DocumentIndexStage::Add(const DocumentRecord& record, const std::string& delivery) {
    if (record.cnpj.kind != sdk::DocumentKind::kCnpj) {
        ++not_cnpj_;
    }
    const std::string version = std::to_string(record.version);
    const std::string year = std::to_string(year_);
    const std::string code = std::to_string(record.cvm_code);
    const std::string fingerprint = std::to_string(DocumentFingerprint(record));
    const std::string line = std::to_string(record.line);
    const std::optional<std::string> category_folded = FoldedFilter(record.category);
    load_->Add({record.protocol,
                version,
                kind_,
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
                delivery,
                line});
}

void DocumentIndexStage::Apply(const std::string& source, const std::string& seen_at, sdk::RejectionLog& log,
                               sdk::IngestSummary& summary) {
    load_->Finish();
    load_.reset();
    sdk::SqlSession sql(db_);
    sql.Execute(
        "CREATE INDEX companies_document_stage_key ON companies_document_stage (protocol, version, line)");

    // One delivery listed twice in a year: the later line is kept (CVM appends re-sent rows).
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
        summary.rejected += dropped;
        sql.Execute(
            "DELETE FROM companies_document_stage WHERE EXISTS (SELECT 1 FROM companies_document_stage later"
            " WHERE later.protocol = companies_document_stage.protocol"
            " AND later.version = companies_document_stage.version AND later.line > "
            "companies_document_stage.line)");
    }

    // The stored year replaced by the staged one.
    const StagedDiff diff{"companies_document",
                          "companies_document_stage",
                          {"protocol", "version"},
                          kind_,
                          "year = " + std::to_string(year_),
                          "o.fingerprint = n.fingerprint AND o.delivery = n.delivery"};
    if (CountAndRemoveGone(sql, diff, summary) > 0) {
        sql.Execute("INSERT INTO companies_document (" + std::string(kColumns) + ", first_seen_at) SELECT " +
                        kColumns +
                        ", $1 FROM companies_document_stage WHERE true"
                        " ON CONFLICT (kind, protocol, version) DO UPDATE SET year = excluded.year,"
                        " cvm_code = excluded.cvm_code, cnpj = excluded.cnpj, cnpj_published = "
                        "excluded.cnpj_published,"
                        " cnpj_kind = excluded.cnpj_kind, company_name = excluded.company_name,"
                        " reference_date = excluded.reference_date, delivered_at = excluded.delivered_at,"
                        " category = excluded.category, category_folded = excluded.category_folded,"
                        " type = excluded.type, species = excluded.species, subject = excluded.subject,"
                        " presentation = excluded.presentation, link = excluded.link,"
                        " fingerprint = excluded.fingerprint, delivery = excluded.delivery"
                        " WHERE companies_document.fingerprint <> excluded.fingerprint"
                        " OR companies_document.delivery IS DISTINCT FROM excluded.delivery",
                    {std::string_view(seen_at)});
    }
    sql.Execute("DROP TABLE companies_document_stage");
}

}  // namespace lastro::companies
