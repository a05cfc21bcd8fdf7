#include "src/kept_listing.hpp"

#include <lastro/sdk/bulk_sql.hpp>
#include <lastro/sdk/serving/remembered.hpp>

namespace lastro::stocks {

namespace {

std::optional<double> Number(const std::optional<std::string>& cell) {
    return cell ? std::optional<double>(std::stod(*cell)) : std::nullopt;
}

KeptListing ReadListing(const sdk::RequestContext& context) {
    sdk::SqlSession sql(context.db);
    KeptListing listing;
    for (const auto& row : sql.Query("SELECT ticker, active, class, cnpj, search_text, sector_keys, name_key,"
                                     " last_close, volume, market_cap, change, item FROM stocks_listing"
                                     " ORDER BY ticker")) {
        ListedTicker t;
        t.ticker = *row[0];
        t.active = *row[1] == "1";
        t.instrument_class = *row[2];
        t.cnpj = row[3];
        t.search_text = *row[4];
        t.sector_keys = *row[5];
        t.name_key = row[6];
        t.last_close = Number(row[7]);
        t.volume = Number(row[8]);
        t.market_cap = Number(row[9]);
        t.change = Number(row[10]);
        t.item = *row[11];
        listing.tickers.push_back(std::move(t));
    }
    for (const auto& row : sql.Query("SELECT index_code, ticker FROM stocks_listing_index")) {
        listing.index_members[*row[0]].insert(*row[1]);
    }
    for (const auto& row : sql.Query("SELECT sector_key, name FROM stocks_listing_sector")) {
        listing.sectors.emplace(*row[0], *row[1]);
    }
    const sdk::SqlRows latest = sql.Query("SELECT MAX(day) FROM stocks_day");
    if (!latest.empty()) {
        listing.latest_trading_day = latest[0][0];
    }
    return listing;
}

}  // namespace

std::shared_ptr<const KeptListing> ListingAt(const sdk::RequestContext& context) {
    return sdk::Remembered<KeptListing>(context.host, "stocks.listing", [&] { return ReadListing(context); });
}

}  // namespace lastro::stocks
