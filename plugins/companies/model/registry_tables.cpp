// The registry's tables (cvm.cad_cia_aberta), companies schema version 1, as plugin SQL
// (sdk::SchemaSql). docs/datasets/cad_cia_aberta.md describes each column.
//
// companies_company holds one row per CVM code with the columns the filters need and `item`, the
// row's answer already written as JSON (src/company_item.cpp), rebuilt at each ingest: a page of
// /v1/companhias is a keyset walk over cvm_code that concatenates items.
#include <lastro/sdk/schema_sql.hpp>

#include <odb/database.hxx>

#include <string>

namespace lastro::companies {
namespace {

const std::string kCompanyTable =
    "CREATE TABLE IF NOT EXISTS companies_company ("
    " cvm_code BIGINT PRIMARY KEY, cnpj TEXT, cnpj_published TEXT NOT NULL, cnpj_kind TEXT NOT NULL,"
    " legal_name TEXT, trade_name TEXT, situation TEXT, situation_folded TEXT, registered_at TEXT,"
    " cancelled_at TEXT, search_text TEXT NOT NULL, fingerprint TEXT NOT NULL,"
    " first_snapshot BIGINT NOT NULL, changed_snapshot BIGINT NOT NULL, item TEXT NOT NULL)";

const sdk::SchemaSql kRegistrySqlite(
    "companies", 1, odb::id_sqlite,
    {
        kCompanyTable,
        "CREATE INDEX IF NOT EXISTS companies_company_cnpj_i ON companies_company (cnpj)",
        // Each situation (SIT, DT_INI_SIT) a company was seen in, with the first and last
        // snapshots that showed it.
        "CREATE TABLE IF NOT EXISTS companies_situation ("
        " cvm_code BIGINT NOT NULL, situation TEXT NOT NULL, since TEXT NOT NULL,"
        " first_snapshot BIGINT NOT NULL, last_snapshot BIGINT NOT NULL,"
        " PRIMARY KEY (cvm_code, situation, since)) WITHOUT ROWID",
        // The trigram index of `q` (sdk/serving/trigram_search.hpp): its rowid is the CVM code.
        "CREATE VIRTUAL TABLE IF NOT EXISTS companies_company_search USING fts5("
        " search_text, content='companies_company', content_rowid='cvm_code', tokenize='trigram',"
        " detail='column')",
        "CREATE TRIGGER IF NOT EXISTS companies_company_search_ai AFTER INSERT ON companies_company BEGIN"
        " INSERT INTO companies_company_search(rowid, search_text) VALUES (new.cvm_code, new.search_text); "
        "END",
        "CREATE TRIGGER IF NOT EXISTS companies_company_search_ad AFTER DELETE ON companies_company BEGIN"
        " INSERT INTO companies_company_search(companies_company_search, rowid, search_text)"
        " VALUES ('delete', old.cvm_code, old.search_text); END",
        "CREATE TRIGGER IF NOT EXISTS companies_company_search_au AFTER UPDATE OF search_text ON"
        " companies_company BEGIN"
        " INSERT INTO companies_company_search(companies_company_search, rowid, search_text)"
        " VALUES ('delete', old.cvm_code, old.search_text);"
        " INSERT INTO companies_company_search(rowid, search_text) VALUES (new.cvm_code, new.search_text); "
        "END",
    });

// PostgreSQL: pg_trgm's GIN index serves the folded LIKE itself (the operator class named in
// the extension's schema, as the funds plugin does).
const sdk::SchemaSql kRegistryPgsql(
    "companies", 1, odb::id_pgsql,
    {
        kCompanyTable,
        "CREATE INDEX IF NOT EXISTS companies_company_cnpj_i ON companies_company (cnpj)",
        "CREATE TABLE IF NOT EXISTS companies_situation ("
        " cvm_code BIGINT NOT NULL, situation TEXT NOT NULL, since TEXT NOT NULL,"
        " first_snapshot BIGINT NOT NULL, last_snapshot BIGINT NOT NULL,"
        " PRIMARY KEY (cvm_code, situation, since))",
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        "DO $$ DECLARE ops text; BEGIN"
        " SELECT quote_ident(n.nspname) || '.gin_trgm_ops' INTO ops FROM pg_extension e"
        " JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';"
        " EXECUTE 'CREATE INDEX IF NOT EXISTS companies_company_search_trgm_i ON companies_company"
        " USING gin (search_text ' || ops || ') WITH (fastupdate = off)';"
        " END $$",
    });

}  // namespace
}  // namespace lastro::companies
