// The listing /v1/acoes reads (stocks.listing, derive/listing_derivation.cpp), stocks schema
// version 1, as plugin SQL (sdk::SchemaSql): one row per round-lot ticker with the columns its
// filters and sorts need and `item`, its answer already written as JSON, rebuilt whole after an
// ingest of any source (a few thousand rows).
#include <lastro/sdk/schema_sql.hpp>

#include <odb/database.hxx>

#include <string>

namespace lastro::stocks {
namespace {

const std::string kListingTable =
    "CREATE TABLE IF NOT EXISTS stocks_listing ("
    " ticker TEXT PRIMARY KEY, active INTEGER NOT NULL, class TEXT NOT NULL, cnpj TEXT, search_text TEXT NOT "
    "NULL,"
    " sector_keys TEXT NOT NULL, name_key TEXT, last_close DOUBLE PRECISION, volume DOUBLE PRECISION,"
    " market_cap DOUBLE PRECISION, change DOUBLE PRECISION, item TEXT NOT NULL)";
const std::string kListingByActive =
    "CREATE INDEX IF NOT EXISTS stocks_listing_active_i ON stocks_listing (active, ticker)";
const std::string kListingByCnpj =
    "CREATE INDEX IF NOT EXISTS stocks_listing_cnpj_i ON stocks_listing (cnpj)";
// The index filter: a ticker's indexes, one row each.
const std::string kListingIndexTable =
    "CREATE TABLE IF NOT EXISTS stocks_listing_index ("
    " index_code TEXT NOT NULL, ticker TEXT NOT NULL, PRIMARY KEY (index_code, ticker))";
// The sector filter's allowed values (folded key and the name as B3 writes it).
const std::string kListingSectorTable =
    "CREATE TABLE IF NOT EXISTS stocks_listing_sector (sector_key TEXT PRIMARY KEY, name TEXT NOT NULL)";

const sdk::SchemaSql kListingSqlite("stocks", 1, odb::id_sqlite,
                                    {kListingTable, kListingByActive, kListingByCnpj, kListingIndexTable,
                                     kListingSectorTable});
const sdk::SchemaSql kListingPgsql("stocks", 1, odb::id_pgsql,
                                   {kListingTable, kListingByActive, kListingByCnpj, kListingIndexTable,
                                    kListingSectorTable});

}  // namespace
}  // namespace lastro::stocks
