// B3's reference data (b3.corporate_actions, b3.company_details, b3.index_membership), stocks
// schema version 1, as plugin SQL (sdk::SchemaSql). docs/datasets/b3_json.md describes each column.
//
// stocks_corporate_action keeps every event forever, as published: B3's service answers only the
// last 12 months, so an ingest adds and updates events and never removes one. One cash event
// published by both files (GetListedCashDividends with its corporateActionPrice, and
// GetListedSupplementCompany with its payment date and ISIN) is one row with both records in
// `published`. `id` is derived from the event's published key, so it stays across re-ingests.
#include <lastro/sdk/schema_sql.hpp>

#include <odb/database.hxx>

#include <string>

namespace lastro::stocks {
namespace {

const std::string kCorporateActionTable =
    "CREATE TABLE IF NOT EXISTS stocks_corporate_action ("
    " id TEXT PRIMARY KEY, issuer TEXT NOT NULL, kind TEXT NOT NULL, label TEXT NOT NULL, share_type TEXT,"
    " isin TEXT, approved_on TEXT, last_date_with_rights TEXT, payment_date TEXT, amount_published TEXT,"
    " amount DOUBLE PRECISION, ratio_published TEXT, quoted_per_shares BIGINT, price_factor DOUBLE PRECISION,"
    " factor_source TEXT, published TEXT NOT NULL, fingerprint TEXT NOT NULL, first_seen_at TEXT NOT NULL,"
    " updated_at TEXT NOT NULL)";
const std::string kActionByIssuer =
    "CREATE INDEX IF NOT EXISTS stocks_corporate_action_issuer_i ON stocks_corporate_action"
    " (issuer, last_date_with_rights, id)";
const std::string kActionByRights =
    "CREATE INDEX IF NOT EXISTS stocks_corporate_action_rights_i ON stocks_corporate_action"
    " (last_date_with_rights, id)";
const std::string kActionByPayment =
    "CREATE INDEX IF NOT EXISTS stocks_corporate_action_payment_i ON stocks_corporate_action (payment_date, "
    "id)";

// One row per B3 issuer code (ABEV): GetDetailsCompany's fields and GetListedSupplementCompany's
// share counts, each with the file and time it came from.
const std::string kIssuerTable =
    "CREATE TABLE IF NOT EXISTS stocks_issuer ("
    " issuer TEXT PRIMARY KEY, cnpj TEXT, cvm_code BIGINT, company_name TEXT, trading_name TEXT,"
    " sector TEXT, subsector TEXT, segment TEXT, classification_published TEXT, market TEXT,"
    " codes TEXT, details_source TEXT, details_as_of TEXT, common_shares BIGINT, preferred_shares BIGINT,"
    " total_shares BIGINT, shares_published TEXT, quoted_per_shares_since TEXT, round_lot BIGINT,"
    " supplement_source TEXT, supplement_as_of TEXT)";
// The ticker -> ISIN codes of GetDetailsCompany.otherCodes, for the company link.
const std::string kIssuerCodeTable =
    "CREATE TABLE IF NOT EXISTS stocks_issuer_code ("
    " ticker TEXT NOT NULL, issuer TEXT NOT NULL, isin TEXT, PRIMARY KEY (ticker, issuer))";

// Index membership: one row per (source, index, ticker); a file replaces its source's rows
// (GetStockIndex: every index; GetTheoricalPortfolio_<INDEX>: that index).
const std::string kIndexMemberTable =
    "CREATE TABLE IF NOT EXISTS stocks_index_member ("
    " source TEXT NOT NULL, index_code TEXT NOT NULL, ticker TEXT NOT NULL, as_of TEXT,"
    " theoretical_quantity TEXT, weight_published TEXT, source_file TEXT NOT NULL,"
    " PRIMARY KEY (source, index_code, ticker))";
const std::string kIndexMemberByTicker =
    "CREATE INDEX IF NOT EXISTS stocks_index_member_ticker_i ON stocks_index_member (ticker)";

const sdk::SchemaSql kReferenceSqlite("stocks", 1, odb::id_sqlite,
                                      {kCorporateActionTable, kActionByIssuer, kActionByRights,
                                       kActionByPayment, kIssuerTable, kIssuerCodeTable, kIndexMemberTable,
                                       kIndexMemberByTicker});
const sdk::SchemaSql kReferencePgsql("stocks", 1, odb::id_pgsql,
                                     {kCorporateActionTable, kActionByIssuer, kActionByRights,
                                      kActionByPayment, kIssuerTable, kIssuerCodeTable, kIndexMemberTable,
                                      kIndexMemberByTicker});

}  // namespace
}  // namespace lastro::stocks
