// The quotes' tables (b3.cotahist), stocks schema version 1, as plugin SQL (sdk::SchemaSql).
// docs/datasets/cotahist.md describes each column.
//
// stocks_quote keeps one row per COTAHIST cash-market line, keyed as B3 keys it (ticker, day,
// market type, BDI code, term). Prices are the published integers (two implied decimals, per
// quotation_factor shares) so nothing is rounded on the way in; the handlers divide. stocks_day
// lists the trading days loaded with the file that gave each: a day given again is replaced
// whole, whatever the order the files arrive in.
#include <lastro/sdk/schema_sql.hpp>

#include <odb/database.hxx>

#include <string>

namespace lastro::stocks {
namespace {

const std::string kQuoteTable =
    "CREATE TABLE IF NOT EXISTS stocks_quote ("
    " ticker TEXT NOT NULL, day TEXT NOT NULL, market_type INTEGER NOT NULL, bdi INTEGER NOT NULL,"
    " term TEXT NOT NULL, short_name TEXT, specification TEXT, isin TEXT, open_price BIGINT,"
    " high_price BIGINT, low_price BIGINT, average_price BIGINT, close_price BIGINT, best_bid BIGINT,"
    " best_ask BIGINT, trades BIGINT, quantity BIGINT, volume BIGINT, quotation_factor BIGINT NOT NULL,"
    " distribution BIGINT, PRIMARY KEY (ticker, day, market_type, bdi, term))";
// A day's rows, for its replacement and for the listing's rebuild.
const std::string kQuoteByDay = "CREATE INDEX IF NOT EXISTS stocks_quote_day_i ON stocks_quote (day)";

const std::string kDayTable =
    "CREATE TABLE IF NOT EXISTS stocks_day ("
    " day TEXT PRIMARY KEY, file_id BIGINT NOT NULL, rows_kept BIGINT NOT NULL)";

const sdk::SchemaSql kQuotesSqlite("stocks", 1, odb::id_sqlite, {kQuoteTable, kQuoteByDay, kDayTable});
const sdk::SchemaSql kQuotesPgsql("stocks", 1, odb::id_pgsql, {kQuoteTable, kQuoteByDay, kDayTable});

}  // namespace
}  // namespace lastro::stocks
