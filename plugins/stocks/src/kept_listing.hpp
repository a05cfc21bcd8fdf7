// The listing /v1/acoes pages over (stocks.listing: a few thousand rows, their answers already
// written by the derivation), read once per data release and kept (sdk::Remembered): filters and
// sorts combine freely, so each call filters and sorts the kept rows in memory instead of asking
// the database to sort every matching row again (docs/performance.md, "Listed stocks").
#pragma once

#include <lastro/sdk/plugin.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lastro::stocks {

// A row of stocks_listing: what its filters and sorts read, and its item.
struct ListedTicker {
    std::string ticker;
    bool active = false;
    std::string instrument_class;
    std::optional<std::string> cnpj;
    std::string search_text;  // folded (sdk::FoldForSearch)
    std::string sector_keys;  // "|key|key|", folded
    std::optional<std::string> name_key;
    std::optional<double> last_close, volume, market_cap, change;
    std::string item;  // the answer's JSON object
};

struct KeptListing {
    std::vector<ListedTicker> tickers;                           // by ticker
    std::map<std::string, std::set<std::string>> index_members;  // index code: its tickers
    std::map<std::string, std::string> sectors;                  // folded key: the name as B3 writes it
    std::optional<std::string> latest_trading_day;
};

// The listing at the call's data release.
std::shared_ptr<const KeptListing> ListingAt(const sdk::RequestContext& context);

}  // namespace lastro::stocks
