// The CRI/CRA tables (cvm.inf_mensal_cri, cvm.inf_mensal_cra, cvm.oferta_distribuicao), companies
// schema version 4, as plugin SQL (sdk::SchemaSql). docs/datasets/inf_mensal_cri.md and
// oferta_distribuicao.md describe each column.
//
// companies_certificate holds one row per identity (tipo, issuer, code) under a page key `id`
// that only grows; companies_certificate_report the report served for each identity and month
// (the winner of its versions), with its series already written as JSON; a page of /v1/emissoes
// is a keyset walk over `id` joined to one report per identity.
#include <lastro/sdk/schema_sql.hpp>

#include <odb/database.hxx>

#include <string>

namespace lastro::companies {
namespace {

const std::string kCertificateTable =
    "CREATE TABLE IF NOT EXISTS companies_certificate ("
    " id BIGINT PRIMARY KEY, kind TEXT NOT NULL, issuer_key TEXT NOT NULL, issuer_cnpj TEXT,"
    " issuer_cnpj_published TEXT NOT NULL, issuer_cnpj_kind TEXT NOT NULL, code TEXT NOT NULL,"
    " latest_month TEXT, search_text TEXT NOT NULL, UNIQUE (kind, issuer_key, code))";
// `cnpj` and `tipo` walk their identities in page order.
const std::string kCertificateByCnpj =
    "CREATE INDEX IF NOT EXISTS companies_certificate_cnpj_i ON companies_certificate (issuer_cnpj, id)";
const std::string kCertificateByKind =
    "CREATE INDEX IF NOT EXISTS companies_certificate_kind_i ON companies_certificate (kind, id)";

const std::string kReportTable =
    "CREATE TABLE IF NOT EXISTS companies_certificate_report ("
    " certificate_id BIGINT NOT NULL, month TEXT NOT NULL, kind TEXT NOT NULL, year INTEGER NOT NULL,"
    " reference_date TEXT NOT NULL, version BIGINT NOT NULL, versions_published BIGINT NOT NULL,"
    " delivered_at TEXT, emission_number TEXT, emission_key TEXT, emission_name TEXT, series_count BIGINT,"
    " issued_at TEXT, issuer_name TEXT, fiduciary_agent TEXT, lastro_type TEXT, lastro_detail TEXT,"
    " segment TEXT, rating_agency TEXT, net_worth TEXT, series_json TEXT NOT NULL, search_text TEXT NOT NULL,"
    " fingerprint TEXT NOT NULL, first_seen_at TEXT NOT NULL, PRIMARY KEY (certificate_id, month))";
// `month` walks that month's reports in page order; a year's rows for its replacement.
const std::string kReportByMonth =
    "CREATE INDEX IF NOT EXISTS companies_certificate_report_month_i ON companies_certificate_report"
    " (month, certificate_id)";
const std::string kReportByYear =
    "CREATE INDEX IF NOT EXISTS companies_certificate_report_year_i ON companies_certificate_report (kind, "
    "year)";

// What each source covers, written by its ingest: the months of each type's reports and how many
// reports each (source "cvm.inf_mensal_cri"...), the offerings of each regime (source
// "cvm.oferta_distribuicao:legacy"..., month ''). meta.coverage and the 404 of a month not covered
// read this, never the reports.
const std::string kCoverageTable =
    "CREATE TABLE IF NOT EXISTS companies_issuance_coverage ("
    " source TEXT NOT NULL, month TEXT NOT NULL, row_count BIGINT NOT NULL, PRIMARY KEY (source, month))";

// The CRI/CRA offerings of oferta_distribuicao.zip, one row per regime and key, matched to
// certificates by (kind, issuer_cnpj, emission_key); `item` is the offering's answer.
const std::string kOfferingTable =
    "CREATE TABLE IF NOT EXISTS companies_offering ("
    " regime TEXT NOT NULL, offering_key TEXT NOT NULL, kind TEXT NOT NULL, issuer_cnpj TEXT,"
    " emission_key TEXT, item TEXT NOT NULL, fingerprint TEXT NOT NULL, first_seen_at TEXT NOT NULL,"
    " PRIMARY KEY (regime, offering_key))";
const std::string kOfferingMatch =
    "CREATE INDEX IF NOT EXISTS companies_offering_match_i ON companies_offering"
    " (issuer_cnpj, kind, emission_key)";

const sdk::SchemaSql kIssuancesSqlite(
    "companies", 4, odb::id_sqlite,
    {
        kCertificateTable,
        kCertificateByCnpj,
        kCertificateByKind,
        kReportTable,
        kReportByMonth,
        kReportByYear,
        kCoverageTable,
        kOfferingTable,
        kOfferingMatch,
        // The trigram index of `q` (sdk/serving/trigram_search.hpp): its rowid is the page key.
        "CREATE VIRTUAL TABLE IF NOT EXISTS companies_certificate_search USING fts5("
        " search_text, content='companies_certificate', content_rowid='id', tokenize='trigram',"
        " detail='column')",
        "CREATE TRIGGER IF NOT EXISTS companies_certificate_search_ai AFTER INSERT ON companies_certificate "
        "BEGIN"
        " INSERT INTO companies_certificate_search(rowid, search_text) VALUES (new.id, new.search_text); "
        "END",
        "CREATE TRIGGER IF NOT EXISTS companies_certificate_search_ad AFTER DELETE ON companies_certificate "
        "BEGIN"
        " INSERT INTO companies_certificate_search(companies_certificate_search, rowid, search_text)"
        " VALUES ('delete', old.id, old.search_text); END",
        "CREATE TRIGGER IF NOT EXISTS companies_certificate_search_au AFTER UPDATE OF search_text ON"
        " companies_certificate BEGIN"
        " INSERT INTO companies_certificate_search(companies_certificate_search, rowid, search_text)"
        " VALUES ('delete', old.id, old.search_text);"
        " INSERT INTO companies_certificate_search(rowid, search_text) VALUES (new.id, new.search_text); "
        "END",
    });

const sdk::SchemaSql kIssuancesPgsql(
    "companies", 4, odb::id_pgsql,
    {
        kCertificateTable,
        kCertificateByCnpj,
        kCertificateByKind,
        kReportTable,
        kReportByMonth,
        kReportByYear,
        kCoverageTable,
        kOfferingTable,
        kOfferingMatch,
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        "DO $$ DECLARE ops text; BEGIN"
        " SELECT quote_ident(n.nspname) || '.gin_trgm_ops' INTO ops FROM pg_extension e"
        " JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';"
        " EXECUTE 'CREATE INDEX IF NOT EXISTS companies_certificate_search_trgm_i ON companies_certificate"
        " USING gin (search_text ' || ops || ') WITH (fastupdate = off)';"
        " END $$",
    });

}  // namespace
}  // namespace lastro::companies
