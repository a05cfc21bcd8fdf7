// The structured filings' tables (cvm.fre_cia_aberta, cvm.fca_cia_aberta) and the datasets
// derived from them (companies.securities, companies.shares_outstanding), companies schema
// version 3, as plugin SQL (sdk::SchemaSql): the tables of a form change from year to year, so a
// row is stored whatever its table, its cells a JSON array in the order of the columns the
// table's catalog row lists for that year. docs/datasets/fre_cia_aberta.md describes each column.
#include <lastro/sdk/schema_sql.hpp>

#include <odb/database.hxx>

#include <string>
#include <vector>

namespace lastro::companies {
namespace {

// The delivery a document's versions share: the protocol for IPE, the company and reference
// date for a form, whose versions each get a document id of their own.
const std::string kDeliverySqlite = "ALTER TABLE companies_document ADD COLUMN delivery TEXT";
const std::string kDeliveryPgsql = "ALTER TABLE companies_document ADD COLUMN IF NOT EXISTS delivery TEXT";
const std::string kDeliveryFill = "UPDATE companies_document SET delivery = protocol WHERE delivery IS NULL";
// A company's forms by CNPJ (FRE tables are asked by CNPJ; the index says which versions exist).
const std::string kByCnpj =
    "CREATE INDEX IF NOT EXISTS companies_document_cnpj_i ON companies_document (cnpj, kind, version)";
const std::string kByDelivery =
    "CREATE INDEX IF NOT EXISTS companies_document_delivery_i ON companies_document (kind, delivery, "
    "version)";

// Which tables each year of a form holds, their columns and each column's type for that year:
// JSON [{"name": "Valor_Capital", "type": "number"}, ...].
const std::string kTableCatalog =
    "CREATE TABLE IF NOT EXISTS companies_filing_table ("
    " kind TEXT NOT NULL, table_key TEXT NOT NULL, table_name TEXT NOT NULL, year INTEGER NOT NULL,"
    " columns TEXT NOT NULL, row_count BIGINT NOT NULL, PRIMARY KEY (kind, table_key, year))";
// One row of a table member, by its year, table, document (the index line) and its place among
// that document's rows in the member; a year's replacement reads its key's prefix. (Not WITHOUT
// ROWID on SQLite: the key then looks covering to the planner, which preferred reading every row
// of the kind to the company index below, measured at 1.1 s a call on the full-size sample.)
const std::string kRows =
    "CREATE TABLE IF NOT EXISTS companies_filing_row ("
    " kind TEXT NOT NULL, table_key TEXT NOT NULL, document_id BIGINT NOT NULL, ordinal INTEGER NOT NULL,"
    " year INTEGER NOT NULL, cnpj TEXT, cnpj_published TEXT, reference_date TEXT, version BIGINT NOT NULL,"
    " cells TEXT NOT NULL, fingerprint TEXT NOT NULL, first_seen_at TEXT NOT NULL,"
    " PRIMARY KEY (kind, year, table_key, document_id, ordinal))";
// A company's rows of one table, newest reference date first (the keyset of /linhas).
const std::string kRowsByCompany =
    "CREATE INDEX IF NOT EXISTS companies_filing_row_company_i ON companies_filing_row"
    " (cnpj, kind, table_key, reference_date, version, document_id, ordinal)";

// companies.securities, derived from the FCA: each security of each company's latest form
// (valor_mobiliario), with the row it comes from.
const std::string kSecurities =
    "CREATE TABLE IF NOT EXISTS companies_security ("
    " cvm_code BIGINT NOT NULL, cnpj TEXT, security TEXT, share_class TEXT, preferred_class TEXT,"
    " preferred_class_name TEXT, ticker TEXT, composition TEXT, market TEXT, market_entity TEXT,"
    " market_entity_name TEXT, trading_from TEXT, trading_to TEXT, segment TEXT, listed_from TEXT, listed_to "
    "TEXT,"
    " reference_date TEXT, version BIGINT NOT NULL, document_id BIGINT NOT NULL, source_row INTEGER NOT NULL,"
    " delivered_at TEXT, PRIMARY KEY (document_id, source_row))";
const std::string kSecuritiesByCompany =
    "CREATE INDEX IF NOT EXISTS companies_security_company_i ON companies_security (cvm_code, ticker)";
const std::string kSecuritiesByTicker =
    "CREATE INDEX IF NOT EXISTS companies_security_ticker_i ON companies_security (ticker)";
const std::string kSecuritiesByCnpj =
    "CREATE INDEX IF NOT EXISTS companies_security_cnpj_i ON companies_security (cnpj)";
// companies.shares_outstanding, derived from the FRE: each company's shares by class at each
// reference date (the latest version of each), every figure with the cell it comes from.
const std::string kShares =
    "CREATE TABLE IF NOT EXISTS companies_shares ("
    " cvm_code BIGINT NOT NULL, cnpj TEXT, reference_date TEXT NOT NULL, version BIGINT NOT NULL,"
    " document_id BIGINT NOT NULL, delivered_at TEXT, measure TEXT NOT NULL, share_class TEXT NOT NULL,"
    " quantity TEXT, source_table TEXT NOT NULL, source_row INTEGER NOT NULL, source_column TEXT NOT NULL,"
    " PRIMARY KEY (document_id, measure, share_class))";
const std::string kSharesByCompany =
    "CREATE INDEX IF NOT EXISTS companies_shares_company_i ON companies_shares (cvm_code, reference_date)";
const std::string kSharesByCnpj =
    "CREATE INDEX IF NOT EXISTS companies_shares_cnpj_i ON companies_shares (cnpj, reference_date)";

// Every statement of version 3 but the column's addition, which only PostgreSQL can make
// idempotent.
std::vector<std::string> Version3(const std::string& add_delivery) {
    return {
        add_delivery,     kByCnpj,      kDeliveryFill,        kByDelivery,         kTableCatalog,     kRows,
        kRowsByCompany,   kSecurities,  kSecuritiesByCompany, kSecuritiesByTicker, kSecuritiesByCnpj, kShares,
        kSharesByCompany, kSharesByCnpj};
}

const sdk::SchemaSql kFilingsSqlite("companies", 3, odb::id_sqlite, Version3(kDeliverySqlite));
const sdk::SchemaSql kFilingsPgsql("companies", 3, odb::id_pgsql, Version3(kDeliveryPgsql));

}  // namespace
}  // namespace lastro::companies
