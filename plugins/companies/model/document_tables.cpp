// The document indexes' table (cvm.ipe_cia_aberta, and the other indexes as they are served),
// companies schema version 2, as plugin SQL (sdk::SchemaSql): a year is staged in bulk and
// applied in set-based statements. docs/datasets/ipe_cia_aberta.md describes each column.
#include <lastro/sdk/schema_sql.hpp>

#include <odb/database.hxx>

#include <string>

namespace lastro::companies {
namespace {

const std::string kDocumentTable =
    "CREATE TABLE IF NOT EXISTS companies_document ("
    " kind TEXT NOT NULL, protocol TEXT NOT NULL, version BIGINT NOT NULL, year INTEGER NOT NULL,"
    " cvm_code BIGINT NOT NULL, cnpj TEXT, cnpj_published TEXT, cnpj_kind TEXT NOT NULL, company_name TEXT,"
    " reference_date TEXT, delivered_at TEXT, category TEXT, category_folded TEXT, type TEXT, species TEXT, "
    "subject TEXT,"
    " presentation TEXT, link TEXT, fingerprint TEXT NOT NULL, first_seen_at TEXT NOT NULL,"
    " PRIMARY KEY (kind, protocol, version))";
// A company's documents newest first (the keyset of /documentos); a year's rows for its replacement.
const std::string kByCompany =
    "CREATE INDEX IF NOT EXISTS companies_document_company_i ON companies_document"
    " (cvm_code, delivered_at, kind, protocol, version)";
const std::string kByYear =
    "CREATE INDEX IF NOT EXISTS companies_document_year_i ON companies_document (kind, year)";

const sdk::SchemaSql kDocumentsSqlite("companies", 2, odb::id_sqlite, {kDocumentTable, kByCompany, kByYear});
const sdk::SchemaSql kDocumentsPgsql("companies", 2, odb::id_pgsql, {kDocumentTable, kByCompany, kByYear});

}  // namespace
}  // namespace lastro::companies
